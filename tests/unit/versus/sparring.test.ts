import { afterEach, describe, expect, it } from 'vitest';
import { decodeReplay, DEFAULT_HANDLING, TICKS_PER_SECOND } from '@/lib/engine';
import { clientMessageSchema, serverMessageSchema, type ServerMessage, type VersusClientMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import type { VersusPeer } from '@/lib/server/live/connection';
import type { Timers } from '@/lib/server/live/match/match-host';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import type { SeatOwner, StoreMatchResult } from '@/lib/server/versus/store';
import { verifyMatch, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { VersusSeat } from '@/tests/support/versus-seat';

const base = { handling: DEFAULT_HANDLING, nextCount: 5 };
const spar = (pps = 3): VersusClientMessage => ({ t: 'spar', mode: 'battle', firstTo: 2, bot: { pps, style: 'tidy' }, ...base });

/** The lobby on a fake clock: its timers (the match host's and the bot's) fire as `run` moves the clock. */
function setUp() {
  const clock = { t: 1_000 };
  const due: Array<{ at: number; fn: () => void }> = [];
  const timers: Timers = {
    set: (fn, ms) => {
      const entry = { at: clock.t + ms, fn };
      due.push(entry);
      return entry;
    },
    clear: (h) => {
      const i = due.indexOf(h as (typeof due)[number]);
      if (i >= 0) due.splice(i, 1);
    },
  };
  const stored: Array<{ record: VersusMatchRecord; seats: [SeatOwner, SeatOwner]; ranked: boolean }> = [];
  const store = async (o: { record: VersusMatchRecord; seats: [SeatOwner, SeatOwner]; ranked: boolean }): Promise<StoreMatchResult> => {
    stored.push(o);
    const v = verifyMatch(o.record);
    return v.ok ? { ok: true, matchId: 'm', repeated: false, ratings: null, noContest: false } : v;
  };
  const lobby = new VersusLobby({ bus: createLocalBus(), now: () => clock.t, timers, store, ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: async () => ({ ok: true, avoid: [] }) });
  return { lobby, clock, due, stored };
}

/** A player's socket as the lobby sees it, played (when asked) by the tests' bot through the browser's own seat logic. */
function player(owner: { userId: string | null; guestId: string | null }, clock: { t: number }, mistakes = 0.5) {
  const seat = new VersusSeat({ seed: `p-${owner.userId ?? owner.guestId}`, mistakes }, () => clock.t);
  const got: ServerMessage[] = [];
  const c: VersusPeer = {
    owner, player: { name: owner.userId, guest: !owner.userId }, address: `10.1.0.${got.length}`, device: null, open: true, watches: new Map(), match: null,
    send: (m) => {
      got.push(serverMessageSchema.parse(m));
      seat.receive(m);
    },
    error: (code, message) => void got.push({ t: 'error', code, message }),
  };
  return { c, seat, got, last: (t: string) => got.filter((m) => m.t === t).at(-1) as never };
}

let open: VersusLobby | null = null;
afterEach(() => open?.close());

describe('sparring against the server’s bot', () => {
  it('plays a whole set through the referee: unranked, the bot at its pace, stored as the bot’s seat, its replay verified', async () => {
    const { lobby, clock, due, stored } = setUp();
    open = lobby;
    const me = player({ userId: 'sparrer', guestId: null }, clock);
    await lobby.handle(me.c, spar(3));
    const match = me.last('match') as Extract<ServerMessage, { t: 'match' }>;
    expect(match).toMatchObject({ ranked: false, seat: 0, players: [{ name: 'sparrer' }, { bot: { pps: 3, style: 'tidy' } }] });
    const host = lobby.matches.get(match.matchId)!;
    for (let end = clock.t + 600_000; clock.t < end && !host.ended; ) {
      clock.t += 100;
      for (const d of due.filter((x) => x.at <= clock.t)) {
        due.splice(due.indexOf(d), 1);
        d.fn();
      }
      const upTo = Math.floor(((clock.t - me.seat.startsAt) * 60) / 1000);
      const batch = upTo > 0 && me.seat.game && !host.ended ? me.seat.play(upTo) : null;
      if (batch) await lobby.handle(me.c, { t: 'vinputs', matchId: match.matchId, ...batch });
      expect(me.got.filter((m) => m.t === 'error')).toEqual([]);
    }
    await lobby.stored();
    expect(me.last('vover')).toMatchObject({ ranked: false, stored: true });
    expect(stored).toHaveLength(1);
    const { record, seats, ranked } = stored[0]!;
    expect(ranked).toBe(false);
    expect(seats[1]).toEqual({ userId: null, guestId: null, bot: { pps: 3, style: 'tidy' } });
    expect(verifyMatch(record).ok).toBe(true);
    // The bot's own stream, as verified: about its pace (never faster), every game of the set.
    for (const g of record.games) {
      const replay = decodeReplay(g.replays[1]);
      const downs = replay.events.filter((e) => e.down && e.key === 'hardDrop').length;
      const seconds = g.endTick / TICKS_PER_SECOND;
      expect(downs).toBeLessThanOrEqual(Math.ceil(3 * seconds) + 1);
      if (seconds > 20) expect(downs).toBeGreaterThan(2 * seconds);
    }
    // Nothing of the bot is left running: no timer of its, no match, no rematch offer.
    expect(due).toEqual([]);
    await lobby.handle(me.c, { t: 'rematch', matchId: match.matchId, want: true });
    expect(me.last('error')).toMatchObject({ code: 'unknown_match' });
  }, 60_000);

  it('one bot match per player whatever their sockets, none while in another match, the queue or a room, and a cap on the instance', async () => {
    const { lobby, clock } = setUp();
    open = lobby;
    const me = player({ userId: 'one', guestId: null }, clock);
    const queued = player({ userId: 'two', guestId: null }, clock);
    await lobby.handle(queued.c, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await lobby.handle(queued.c, spar());
    expect(queued.last('error')).toMatchObject({ code: 'already_playing' });
    await lobby.handle(me.c, spar());
    await lobby.handle(me.c, spar());
    expect(me.last('error')).toMatchObject({ code: 'already_playing' });
    const tab = player({ userId: 'one', guestId: null }, clock);
    await lobby.handle(tab.c, spar());
    expect(tab.last('error')).toMatchObject({ code: 'too_many_games' });
    expect(lobby.matches.size).toBe(1);
    for (let i = lobby.matches.size; i < LIVE_LIMITS.sparringMatches; i++) await lobby.handle(player({ userId: null, guestId: `g${i}` }, clock).c, spar());
    expect(lobby.matches.size).toBe(LIVE_LIMITS.sparringMatches);
    const late = player({ userId: null, guestId: 'late' }, clock);
    await lobby.handle(late.c, spar());
    expect(late.last('error')).toMatchObject({ code: 'too_many_games', message: expect.stringContaining('busy') });
  });

  it('starting and leaving in a loop meets an hourly budget per player, which renews', async () => {
    const { lobby, clock } = setUp();
    open = lobby;
    const me = player({ userId: 'looper', guestId: null }, clock);
    const startAndLeave = async () => {
      await lobby.handle(me.c, spar());
      const started = me.last('match') as { matchId: string } | undefined;
      if (started && lobby.matches.has(started.matchId)) {
        await lobby.handle(me.c, { t: 'vleave', matchId: started.matchId });
        await lobby.matches.get(started.matchId)?.finished;
      }
    };
    for (let i = 0; i < LIVE_LIMITS.sparringStartsPerHour.player; i++) await startAndLeave();
    expect(me.got.filter((m) => m.t === 'match')).toHaveLength(LIVE_LIMITS.sparringStartsPerHour.player);
    await startAndLeave();
    expect(me.last('error')).toMatchObject({ code: 'rate_limited' });
    expect(me.got.filter((m) => m.t === 'match')).toHaveLength(LIVE_LIMITS.sparringStartsPerHour.player);
    clock.t += 3_600_000;
    await startAndLeave();
    expect(me.got.filter((m) => m.t === 'match')).toHaveLength(LIVE_LIMITS.sparringStartsPerHour.player + 1);
  });

  it('nobody takes the bot’s seat or plays for it, not even a peer with no owner either', async () => {
    const { lobby, clock } = setUp();
    open = lobby;
    const me = player({ userId: 'host', guestId: null }, clock);
    await lobby.handle(me.c, spar());
    const { matchId, resumeToken } = me.last('match') as { matchId: string; resumeToken: string };
    const nobody = player({ userId: null, guestId: null }, clock);
    await lobby.handle(nobody.c, { t: 'vinputs', matchId, game: 0, seq: 1, tick: 0, events: [] });
    expect(nobody.last('error')).toMatchObject({ code: 'not_your_match' });
    // Even holding a seat's token (here the human's), an ownerless peer resumes nothing.
    await lobby.handle(nobody.c, { t: 'vresume', matchId, token: resumeToken });
    expect(nobody.last('error')).toMatchObject({ code: 'resume_failed' });
  });

  it('refuses a bot outside its settings before any work', () => {
    for (const bot of [{ pps: 6, style: 'tidy' }, { pps: 0, style: 'tidy' }, { pps: 2.5, style: 'tidy' }, { pps: 3, style: 'perfect' }, { pps: 3 }])
      expect(clientMessageSchema.safeParse({ ...spar(), bot }).success).toBe(false);
    expect(clientMessageSchema.safeParse(spar(5)).success).toBe(true);
  });
});
