import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { serverMessageSchema, type ServerMessage, type VersusClientMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { CLUSTER } from '@/lib/server/live/cluster/cluster';
import { connectRedis } from '@/lib/server/live/cluster/redis';
import { RedisSparringLedger } from '@/lib/server/live/cluster/redis-sparring';
import type { VersusPeer } from '@/lib/server/live/connection';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { fakeTimers } from '@/tests/support/fake-timers';
import { redisUp, redisUrl as url } from '@/tests/support/redis';

// The sparring budgets of a player and an address across several instances (docs/decisions/0026):
// two lobbies in one process, each with its own link to a real Redis, as two instances have.

const closers: Array<() => void> = [];
afterAll(() => closers.reverse().forEach((close) => close()));

const base = { handling: DEFAULT_HANDLING, nextCount: 5 };
const spar: VersusClientMessage = { t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 3, style: 'tidy' }, ...base };

/** An instance: a lobby on a fake clock (its matches' timers), its sparring ledger on Redis. */
function instance() {
  const fake = fakeTimers();
  const link = connectRedis(url.toString());
  const store = async () => ({ ok: true as const, matchId: 'm', repeated: false, ratings: null, noContest: false });
  const lobby = new VersusLobby({ bus: createLocalBus(), now: () => fake.clock.t, timers: fake.timers, store, sparring: new RedisSparringLedger(link) });
  const shut = () => (lobby.close(), link.close());
  closers.push(shut);
  /** Dies: nothing more reaches Redis (its holds are not let go), its matches stop. */
  const crash = () => (link.kill(), shut());
  return { lobby, crash, link };
}

/** A socket of `owner` as a lobby sees it, on `address`. */
function socket(owner: { userId: string | null; guestId: string | null }, address: string) {
  const got: ServerMessage[] = [];
  const c: VersusPeer = {
    owner, player: { name: owner.userId, guest: !owner.userId }, address, device: null, open: true, watches: new Map(), match: null,
    send: (m) => void got.push(serverMessageSchema.parse(m)),
    error: (code, message) => void got.push({ t: 'error', code, message }),
  };
  const last = <T extends ServerMessage['t']>(t: T) => got.filter((m): m is Extract<ServerMessage, { t: T }> => m.t === t).at(-1);
  return { c, got, last, matches: () => got.filter((m) => m.t === 'match').length };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a match against the bot on `lobby` and leaves it at once; whether it started. */
async function startAndLeave(lobby: VersusLobby, s: ReturnType<typeof socket>): Promise<boolean> {
  const before = s.matches();
  await lobby.handle(s.c, spar);
  const m = s.last('match');
  if (s.matches() === before || !m) return false;
  await lobby.handle(s.c, { t: 'vleave', matchId: m.matchId });
  await lobby.matches.get(m.matchId)?.finished;
  // The hold goes on this instance's link: a start on another's may reach Redis a moment sooner.
  await sleep(20);
  return true;
}

const tag = () => randomBytes(4).toString('hex');

describe.skipIf(!redisUp)('sparring budgets are the site’s, not each instance’s', () => {
  it('a player with tabs on two instances plays one bot match at a time; once it ends, the other tab may start', async () => {
    const [a, b] = [instance(), instance()];
    const me = { userId: `u-${tag()}`, guestId: null };
    const tabA = socket(me, `10.20.${tag()}`);
    const tabB = socket(me, `10.21.${tag()}`);
    await a.lobby.handle(tabA.c, spar);
    const started = tabA.last('match')!;
    expect(started).toMatchObject({ ranked: false });
    await b.lobby.handle(tabB.c, spar);
    expect(tabB.last('error')).toMatchObject({ code: 'too_many_games', message: expect.stringContaining('another tab') });
    expect(b.lobby.matches.size).toBe(0);
    await a.lobby.handle(tabA.c, { t: 'vleave', matchId: started.matchId });
    await a.lobby.matches.get(started.matchId)?.finished;
    // The hold goes on a's link: its reply to a PING means Redis has it (b's start would otherwise race it).
    await a.link.cmd.ping();
    await b.lobby.handle(tabB.c, spar);
    expect(tabB.matches()).toBe(1);
    expect(b.lobby.matches.size).toBe(1);
  });

  it('two instances asked at the same moment start one match between them', async () => {
    const [a, b] = [instance(), instance()];
    const me = { userId: null, guestId: `g-${tag()}` };
    const [tabA, tabB] = [socket(me, '10.30.0.1'), socket(me, '10.30.0.2')];
    await Promise.all([a.lobby.handle(tabA.c, spar), b.lobby.handle(tabB.c, spar)]);
    expect(a.lobby.matches.size + b.lobby.matches.size).toBe(1);
    expect([tabA, tabB].map((t) => t.last('error')?.code).filter(Boolean)).toEqual(['too_many_games']);
  });

  it('one network holds a few bot matches at once across the instances, and has one hourly budget of starts there', async () => {
    const [a, b] = [instance(), instance()];
    const shared = `198.18.${tag()}`;
    const guests = Array.from({ length: LIVE_LIMITS.sparringMatchesPerAddress + 1 }, () => socket({ userId: null, guestId: `g-${tag()}` }, shared));
    for (const [i, g] of guests.entries()) await (i % 2 ? b : a).lobby.handle(g.c, spar);
    expect(a.lobby.matches.size + b.lobby.matches.size).toBe(LIVE_LIMITS.sparringMatchesPerAddress);
    expect(guests.at(-1)!.last('error')).toMatchObject({ code: 'too_many_games', message: expect.stringContaining('one network') });
    for (const lobby of [a.lobby, b.lobby]) for (const [id, host] of [...lobby.matches]) {
      const g = guests.find((x) => x.last('match')?.matchId === id)!;
      await lobby.handle(g.c, { t: 'vleave', matchId: id });
      await host.finished;
    }

    // The hour's starts, spread over both instances (each instance alone would allow them all again).
    const me = socket({ userId: `u-${tag()}`, guestId: null }, `10.40.${tag()}`);
    let started = 0;
    for (let i = 0; i < LIVE_LIMITS.sparringStartsPerHour.player; i++) if (await startAndLeave(i % 2 ? b.lobby : a.lobby, me)) started++;
    expect(started).toBe(LIVE_LIMITS.sparringStartsPerHour.player);
    expect(await startAndLeave(b.lobby, me)).toBe(false);
    expect(me.last('error')).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('an hour') });
    expect(await startAndLeave(a.lobby, me)).toBe(false);
  }, 30_000);

  it('an instance that dies holding a match holds it no more a lease’s time later; one taking it up holds it on', async () => {
    const [a, b, c] = [instance(), instance(), instance()];
    const me = { userId: `u-${tag()}`, guestId: null };
    const tab = socket(me, '10.50.0.1');
    await a.lobby.handle(tab.c, spar);
    expect(tab.matches()).toBe(1);
    a.crash();
    const other = socket(me, '10.50.0.2');
    await b.lobby.handle(other.c, spar);
    expect(other.last('error')).toMatchObject({ code: 'too_many_games' });
    await sleep(CLUSTER.leaseMs + 500);
    await b.lobby.handle(other.c, spar);
    expect(other.matches()).toBe(1);
    // b's match handed over (a deploy): while c takes it up, a third tab still cannot start another.
    const matchId = other.last('match')!.matchId;
    const host = b.lobby.matches.get(matchId)!;
    const heldBy = connectRedis(url.toString());
    const held = new RedisSparringLedger(heldBy);
    closers.push(() => (held.close(), heldBy.close()));
    host.letGo();
    held.hold({ matchId, who: `user:${me.userId}`, address: '10.50.0.3' });
    await sleep(CLUSTER.leaseMs + 500);
    const third = socket(me, '10.50.0.4');
    await c.lobby.handle(third.c, spar);
    expect(third.last('error')).toMatchObject({ code: 'too_many_games' });
  }, 30_000);
});
