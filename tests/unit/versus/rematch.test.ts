import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { serverMessageSchema, type ServerMessage, type VersusClientMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import type { VersusPeer } from '@/lib/server/live/connection';
import { REMATCH } from '@/lib/server/live/match/rematches';
import { VersusLobby, type LobbyOptions } from '@/lib/server/live/match/versus-lobby';
import type { RankedEntry } from '@/lib/server/versus/pairing';
import type { QueueStanding } from '@/lib/server/versus/bands';

// A rematch after a quick match, tried first the way someone would abuse it: for a match of
// others, one still being played, after the other player went, flooded, and past its time.

let addresses = 0;
function conn(owner: { userId: string | null; guestId: string | null }) {
  const got: ServerMessage[] = [];
  const c: VersusPeer = {
    owner, player: { name: owner.userId, guest: !owner.userId }, address: `10.1.0.${++addresses}`, device: null, open: true, watches: new Map(), match: null,
    send: (m) => void got.push(serverMessageSchema.parse(m)),
    error: (code, message) => void got.push({ t: 'error', code, message }),
  };
  const all = <T extends ServerMessage['t']>(t: T) => got.filter((m) => m.t === t) as Array<Extract<ServerMessage, { t: T }>>;
  return { c, got, all, last: <T extends ServerMessage['t']>(t: T) => all(t).at(-1) };
}
type Player = ReturnType<typeof conn>;

/** The lobby's clock and timers, moved by hand: an offer's expiry is tested without waiting for it. */
function fakeClock() {
  let t = 1_000;
  let ids = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => t,
    timers: { set: (fn: () => void, ms: number) => (due.set(++ids, { at: t + ms, fn }), ids), clear: (h: unknown) => void due.delete(h as number) },
    advance(ms: number) {
      t += ms;
      for (const [h, d] of [...due].sort((a, b) => a[1].at - b[1].at)) if (d.at <= t && due.delete(h)) d.fn();
    },
  };
}

const base = { handling: DEFAULT_HANDLING, nextCount: 5 };
let lobby: VersusLobby;
let clock: ReturnType<typeof fakeClock>;
const stored: string[] = [];
afterEach(() => lobby?.close());

function make(o: Partial<LobbyOptions> = {}) {
  clock = fakeClock();
  lobby = new VersusLobby({
    bus: createLocalBus(), now: clock.now, timers: clock.timers,
    ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: async () => ({ ok: true, avoid: [] }),
    store: async ({ matchId }) => (stored.push(matchId), { ok: true, matchId, repeated: false, ratings: null, noContest: false }),
    ...o,
  });
  return lobby;
}
const send = (x: Player, m: VersusClientMessage) => lobby.handle(x.c, m);

/** Two players meet in a quick match and b leaves it at once: the quickest way to a match that is over. */
async function played(a: Player, b: Player, ranked = false): Promise<string> {
  await send(a, { t: 'queue', mode: 'battle', ranked, ...base });
  await send(b, { t: 'queue', mode: 'battle', ranked, ...base });
  const matchId = a.last('match')!.matchId;
  await send(b, { t: 'vleave', matchId });
  await lobby.matches.get(matchId)?.finished;
  expect(lobby.matches.has(matchId)).toBe(false);
  return matchId;
}
const guests = () => [conn({ userId: null, guestId: `g${++addresses}` }), conn({ userId: null, guestId: `g${++addresses}` })] as const;

describe('a rematch after a quick match', () => {
  it('is not offered when a player has moved on (queued again) while the match was being stored', async () => {
    let release: (() => void) | null = null;
    make({ store: ({ matchId }) => new Promise((done) => (release = () => done({ ok: true, matchId, repeated: false, ratings: null, noContest: false }))) });
    const [a, b] = guests();
    await send(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    const matchId = a.last('match')!.matchId;
    await send(b, { t: 'vleave', matchId });
    await vi.waitFor(() => expect(release).not.toBeNull());
    await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    expect(b.last('queued')).toBeDefined();
    release!();
    await lobby.matches.get(matchId)?.finished;
    expect(a.all('rematch_state')).toEqual([]);
    expect(a.last('rematch_over')).toMatchObject({ matchId, reason: 'left' });
  });

  it('is offered to both; when both want it the same pair plays a new match with its own id, and it is stored as its own', async () => {
    make();
    const [a, b] = guests();
    const first = await played(a, b);
    expect(a.last('rematch_state')).toEqual({ t: 'rematch_state', matchId: first, wants: [false, false], expiresInMs: REMATCH.windowMs });
    expect(b.last('rematch_state')).toMatchObject({ matchId: first, wants: [false, false] });
    await send(a, { t: 'rematch', matchId: first, want: true });
    // Seats are the pairing's: a may sit either side.
    expect(b.last('rematch_state')).toMatchObject({ wants: a.last('match')!.seat === 0 ? [true, false] : [false, true] });
    expect(lobby.matches.size).toBe(0);
    await send(b, { t: 'rematch', matchId: first, want: true });
    const again = a.last('match')!;
    expect(again.matchId).not.toBe(first);
    expect(b.last('match')).toMatchObject({ matchId: again.matchId, mode: 'battle', ranked: false });
    expect(lobby.matches.size).toBe(1);
    await send(a, { t: 'vleave', matchId: again.matchId });
    await lobby.matches.get(again.matchId)?.finished;
    expect(stored.slice(-2)).toEqual([first, again.matchId]);
    // And the rematch is a quick match too: offered again.
    expect(b.last('rematch_state')).toMatchObject({ matchId: again.matchId, wants: [false, false] });
  });

  it('is refused for a match the connection did not play, even to the same account from another tab', async () => {
    make();
    const [a, b] = [conn({ userId: 'ra', guestId: null }), conn({ userId: 'rb', guestId: null })];
    const matchId = await played(a, b);
    const stranger = conn({ userId: 'rz', guestId: null });
    await send(stranger, { t: 'rematch', matchId, want: true });
    expect(stranger.last('error')).toMatchObject({ code: 'not_your_match' });
    const tab = conn({ userId: 'ra', guestId: null });
    await send(tab, { t: 'rematch', matchId, want: true });
    expect(tab.last('error')).toMatchObject({ code: 'not_your_match' });
    // Nobody's wish was recorded: the players heard nothing.
    expect(b.all('rematch_state')).toHaveLength(1);
    await send(b, { t: 'rematch', matchId, want: true });
    expect(lobby.matches.size).toBe(0);
  });

  it('is refused for a match still being played, for an unknown one, and after a room’s match (the room opens again instead)', async () => {
    make();
    const [a, b] = guests();
    await send(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    const live = a.last('match')!.matchId;
    await send(a, { t: 'rematch', matchId: live, want: true });
    expect(a.last('error')).toMatchObject({ code: 'unknown_match', message: expect.stringContaining('not over') });
    await send(a, { t: 'rematch', matchId: 'abcdef0123456789abcdef01', want: true });
    expect(a.last('error')).toMatchObject({ code: 'unknown_match' });

    const [h, f] = guests();
    await send(h, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    const code = h.last('room')!.room.code;
    await send(f, { t: 'room_join', code, ...base });
    await send(h, { t: 'ready', code, ready: true });
    await send(f, { t: 'ready', code, ready: true });
    const roomMatch = h.last('match')!.matchId;
    await send(f, { t: 'vleave', matchId: roomMatch });
    await lobby.matches.get(roomMatch)?.finished;
    expect(h.last('room')).toMatchObject({ room: { code, ready: [false, false] } });
    expect(h.last('rematch_state')).toBeUndefined();
    await send(h, { t: 'rematch', matchId: roomMatch, want: true });
    expect(h.last('error')).toMatchObject({ code: 'unknown_match' });
  });

  it('ends for the other player when one disconnects, queues again or makes a room; then it is gone', async () => {
    make();
    for (const go of [(p: Player) => lobby.drop(p.c), (p: Player) => send(p, { t: 'queue', mode: 'race30', ranked: false, ...base }), (p: Player) => send(p, { t: 'room_create', mode: 'battle', firstTo: 1, ...base })]) {
      const [a, b] = guests();
      const matchId = await played(a, b);
      await send(a, { t: 'rematch', matchId, want: true });
      await go(b);
      expect(a.last('rematch_over')).toEqual({ t: 'rematch_over', matchId, reason: 'left' });
      await send(b, { t: 'rematch', matchId, want: true });
      expect(lobby.matches.size).toBe(0);
      expect(b.last('error')).toMatchObject({ code: 'unknown_match' });
      lobby.drop(a.c);
      lobby.drop(b.c);
    }
  });

  it('is not offered when a player was already gone at the end: the other hears they left', async () => {
    make();
    const [a, b] = guests();
    await send(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    const matchId = a.last('match')!.matchId;
    lobby.drop(b.c); // the seat waits its window; the match ends before b is back
    await send(a, { t: 'vleave', matchId });
    await lobby.matches.get(matchId)?.finished;
    expect(a.last('rematch_state')).toBeUndefined();
    expect(a.last('rematch_over')).toMatchObject({ matchId, reason: 'left' });
    await send(a, { t: 'rematch', matchId, want: true });
    expect(a.last('error')).toMatchObject({ code: 'unknown_match' });
  });

  it('takes a flood of offers as one: the other player hears of it once, and nothing starts twice', async () => {
    make();
    const [a, b] = guests();
    const matchId = await played(a, b);
    for (let i = 0; i < 200; i++) await send(a, { t: 'rematch', matchId, want: true });
    expect(b.all('rematch_state')).toHaveLength(2);
    expect(a.all('rematch_state')).toHaveLength(2);
    await Promise.all([send(b, { t: 'rematch', matchId, want: true }), send(b, { t: 'rematch', matchId, want: true })]);
    expect(a.all('match')).toHaveLength(2);
    expect(lobby.matches.size).toBe(1);
  });

  it('expires after REMATCH.windowMs, and a decline ends it for both at once', async () => {
    make();
    const [a, b] = guests();
    const matchId = await played(a, b);
    await send(a, { t: 'rematch', matchId, want: true });
    clock.advance(REMATCH.windowMs - 1);
    expect(a.last('rematch_over')).toBeUndefined();
    clock.advance(1);
    expect(a.last('rematch_over')).toMatchObject({ matchId, reason: 'expired' });
    expect(b.last('rematch_over')).toMatchObject({ matchId, reason: 'expired' });
    await send(b, { t: 'rematch', matchId, want: true });
    expect(lobby.matches.size).toBe(0);

    const [c, d] = guests();
    const next = await played(c, d);
    await send(c, { t: 'rematch', matchId: next, want: true });
    await send(d, { t: 'rematch', matchId: next, want: false });
    expect(c.last('rematch_over')).toMatchObject({ matchId: next, reason: 'declined' });
    expect(d.last('rematch_over')).toMatchObject({ matchId: next, reason: 'declined' });
    clock.advance(REMATCH.windowMs);
    expect(c.all('rematch_over')).toHaveLength(1);
  });

  it('is not offered for a match stopped here because another instance holds its lease now: it plays on there', async () => {
    make();
    const [a, b] = guests();
    await send(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await send(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    const matchId = a.last('match')!.matchId;
    lobby.stop(matchId);
    expect(lobby.matches.has(matchId)).toBe(false);
    expect([...a.got, ...b.got].filter((m) => m.t === 'rematch_state' || m.t === 'rematch_over')).toEqual([]);
  });

  it('ranked: asks the ranked rules again; a pair they keep apart is refused with the reason, and no match starts', async () => {
    const avoid: Record<string, string[]> = {};
    make({ rankedEntry: async ({ userId }): Promise<RankedEntry> => ({ ok: true, avoid: avoid[userId] ?? [] }) });
    const [a, b] = [conn({ userId: 'k1', guestId: null }), conn({ userId: 'k2', guestId: null })];
    const matchId = await played(a, b, true);
    avoid.k2 = ['k1']; // say they have now met three times today
    await send(a, { t: 'rematch', matchId, want: true });
    await send(b, { t: 'rematch', matchId, want: true });
    expect(lobby.matches.size).toBe(0);
    const over = a.last('rematch_over')!;
    expect(over).toMatchObject({ matchId, reason: 'refused' });
    expect(over.message).toMatch(/ranked/i);
    expect(b.last('rematch_over')).toEqual(over);

    // An account the rules no longer admit (banned since, say) is told its own reason; the other
    // player is told only that the rules refuse the pair (a ban's reason is nobody else's).
    let banned = false;
    make({ rankedEntry: async ({ userId }): Promise<RankedEntry> => (userId === 'k4' && banned ? { ok: false, code: 'not_eligible', message: 'A moderator banned this account.' } : { ok: true, avoid: [] }) });
    const [c, d] = [conn({ userId: 'k3', guestId: null }), conn({ userId: 'k4', guestId: null })];
    const next = await played(c, d, true);
    banned = true;
    await send(c, { t: 'rematch', matchId: next, want: true });
    await send(d, { t: 'rematch', matchId: next, want: true });
    expect(d.last('rematch_over')).toMatchObject({ reason: 'refused', message: 'A moderator banned this account.' });
    expect(c.last('rematch_over')).toMatchObject({ reason: 'refused' });
    expect(c.last('rematch_over')!.message).not.toMatch(/banned/);
  });

  it('ranked: refused when a player\'s ranked 2v2 set starts on another tab, before the rules are read or while they are', async () => {
    const sets = new Set<string>();
    const reading: Array<() => void> = [];
    let slow = false;
    make({
      rankedElsewhere: (userId) => (sets.has(userId) ? 'playing' : null),
      rankedEntry: async () => {
        if (slow) await new Promise<void>((r) => void reading.push(r));
        return { ok: true, avoid: [] };
      },
    });
    const [a, b] = [conn({ userId: 'e1', guestId: null }), conn({ userId: 'e2', guestId: null })];
    const first = await played(a, b, true);
    sets.add('e2');
    await send(a, { t: 'rematch', matchId: first, want: true });
    await send(b, { t: 'rematch', matchId: first, want: true });
    expect(b.last('rematch_over')).toMatchObject({ matchId: first, reason: 'refused', message: expect.stringContaining('2v2') });
    sets.delete('e2');
    const second = await played(a, b, true);
    slow = true;
    await send(a, { t: 'rematch', matchId: second, want: true });
    const asked = send(b, { t: 'rematch', matchId: second, want: true });
    await expect.poll(() => reading.length).toBe(2);
    sets.add('e1'); // its set starts while the rules are being read
    for (const r of reading) r();
    await asked;
    expect(a.last('rematch_over')).toMatchObject({ matchId: second, reason: 'left' });
    expect(lobby.matches.size).toBe(0);
  });

  it('ranked: a pair the rules allow plays ranked again, its set as long as the bands they stand in now', async () => {
    const standings: Record<string, QueueStanding> = { p1: { rating: 1500, band: 'bronze' }, p2: { rating: 1500, band: 'bronze' } };
    make({ ratingOf: async (userId) => standings[userId]! });
    const [a, b] = [conn({ userId: 'p1', guestId: null }), conn({ userId: 'p2', guestId: null })];
    const matchId = await played(a, b, true);
    expect(a.last('match')).toMatchObject({ firstTo: 2 });
    standings.p1 = { rating: 1900, band: 'diamond' };
    standings.p2 = { rating: 1880, band: 'diamond' };
    await send(a, { t: 'rematch', matchId, want: true });
    await send(b, { t: 'rematch', matchId, want: true });
    await expect.poll(() => lobby.matches.size).toBe(1);
    expect(a.last('match')).toMatchObject({ ranked: true, firstTo: 4 });
  });
});
