import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { serverMessageSchema, type ServerMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { CHECKPOINT_EVERY_MS, MatchRestoreError, parseCheckpoint, type MatchCheckpoint } from '@/lib/server/live/match/match-checkpoint';
import { MatchHost, type RestoreOptions } from '@/lib/server/live/match/match-host';
import type { StoreMatchResult } from '@/lib/server/versus/store';
import { verifyMatch, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { fakeTimers } from '@/tests/support/fake-timers';
import { VersusSeat, type SeatBatch } from '@/tests/support/versus-seat';

const SEED = 'unit-checkpoint-seed-0123456789';
/** What a seat is told that decides its game: the referee's garbage, acks, deals, game ends and the set's end. */
const DECIDING = new Set(['garbage', 'ack', 'deal', 'vgame', 'vstart']);

/** A match on a fake clock between two bots, its checkpoints kept; `twin` takes it up from one. */
function setUp(firstTo = 2, storeFails = 0) {
  const { clock, timers, fire } = fakeTimers();
  const now = () => clock.t;
  const stored: Array<{ matchId: string; record: VersusMatchRecord }> = [];
  let failing = storeFails;
  const store = async (o: { matchId: string; record: VersusMatchRecord }): Promise<StoreMatchResult> => {
    if (failing-- > 0) throw new Error('connection terminated unexpectedly');
    stored.push(o);
    const v = verifyMatch(o.record);
    return v.ok ? { ok: true, matchId: o.matchId, repeated: false, ratings: null, noContest: false } : v;
  };
  const saved: MatchCheckpoint[] = [];
  const dropped: string[] = [];
  const checkpoints = { save: (cp: MatchCheckpoint) => saved.push(cp), drop: (id: string) => dropped.push(id), forget: () => {}, unlist: () => {} };
  const seats = [new VersusSeat({ seed: 'a', mistakes: 0.15 }, now), new VersusSeat({ seed: 'b', mistakes: 0.3 }, now)] as const;
  const sent: [ServerMessage[], ServerMessage[]] = [[], []];
  const links = ([0, 1] as const).map((s) => ({ send: (m: ServerMessage) => (sent[s].push(serverMessageSchema.parse(m)), seats[s].receive(m)) }));
  const info = (g: string) => ({ owner: { userId: null, guestId: g }, player: { name: null, guest: true }, handling: DEFAULT_HANDLING, nextCount: 5 });
  const options: RestoreOptions = { bus: createLocalBus(), now, timers, store, checkpoints, onClose: () => {} };
  const host = new MatchHost({ ...options, matchId: 'ckptmatch01', seed: SEED, mode: 'battle', firstTo, ranked: false, seats: [info('g0'), info('g1')] });
  /** Hosts fed the same batches at the same moments: the original and any restored twin. */
  const hosts: MatchHost[] = [host];
  /** Moves the clock in 100 ms steps; each seat plays against the original, and every host gets the same batch. */
  const run = (until: () => boolean, limitMs = 600_000) => {
    for (let end = clock.t + limitMs; clock.t < end && !until(); ) {
      clock.t += 100;
      fire();
      for (const s of [0, 1] as const) {
        if (host.ended) break;
        const upTo = Math.floor(((clock.t - seats[s].startsAt) * 60) / 1000);
        const batch: SeatBatch | null = upTo > 0 ? seats[s].play(upTo) : null;
        if (batch) for (const h of hosts) expect(h.inputs(s, batch)).toBeNull();
      }
    }
  };
  /**
   * A host restored from `cp` (through its stored text) as if written `ageMs` ago by the wall clock
   * (the fake clock is the hosts' only other one), both seats resumed on links that keep what it says.
   */
  const twin = (cp: MatchCheckpoint, ageMs = 0) => {
    const parsed = parseCheckpoint(JSON.stringify({ ...cp, writtenAt: Date.now() - ageMs }));
    if (!parsed.ok) throw new Error(parsed.message);
    const restored = MatchHost.restore(parsed.checkpoint, { ...options, bus: createLocalBus() });
    const said: [ServerMessage[], ServerMessage[]] = [[], []];
    for (const s of [0, 1] as const) if (!restored.ended) expect(restored.resume(s, { send: (m) => said[s].push(serverMessageSchema.parse(m)) }, cp.state[s].token)).toBe(true);
    hosts.push(restored);
    return { restored, said };
  };
  host.begin([links[0]!, links[1]!]);
  return { host, seats, sent, stored, saved, dropped, run, twin, clock, fire };
}

describe('a match checkpoint', () => {
  it('taken up in a fresh host mid-set, plays on exactly as the original: the same garbage, acks, deals, result and stored replays', async () => {
    const m = setUp();
    // Halfway: the first game decided, the second two seconds in.
    m.run(() => m.seats[0].gameIndex === 1 && (m.seats[0].game?.tickNo ?? 0) > 120);
    expect(m.host.gameIndex).toBe(1);
    expect(m.host.ended).toBe(false);
    const cp = m.host.checkpoint();
    expect(cp.phase).toBe('playing');
    expect(cp.games).toHaveLength(2);
    expect(cp.games[0]!.joins[0].length + cp.games[0]!.joins[1].length).toBeGreaterThan(0); // garbage was routed: the order mattered
    const before: [number, number] = [m.sent[0].length, m.sent[1].length];
    const { restored, said } = m.twin(cp);
    expect(restored.score).toEqual(m.host.score);
    m.run(() => m.host.ended);
    await Promise.all([m.host.finished, restored.finished]);
    expect(m.stored).toHaveLength(2);
    const [a, b] = m.stored;
    expect(verifyMatch(a!.record).ok).toBe(true);
    // Identical records: every game's replays (and so their hashes), winners and the set's score.
    expect(JSON.stringify(b!.record)).toBe(JSON.stringify(a!.record));
    expect(restored.score).toEqual(m.host.score);
    for (const s of [0, 1] as const) {
      const original = m.sent[s].slice(before[s]).filter((x) => DECIDING.has(x.t));
      const twin = said[s].filter((x) => DECIDING.has(x.t));
      expect(twin).toEqual(original);
      expect(original.some((x) => x.t === 'garbage') || s === 0).toBe(true);
    }
    expect(said[0].findLast((x) => x.t === 'vover')).toMatchObject({ stored: true, score: m.host.score });
  });

  it('taken up between two games, starts the next one when the original does and plays it the same', async () => {
    const m = setUp();
    m.run(() => m.host.gameIndex === 1);
    const cp = m.host.checkpoint();
    expect(cp.phase).toBe('between');
    const { restored } = m.twin(cp);
    m.run(() => m.host.ended);
    await Promise.all([m.host.finished, restored.finished]);
    expect(JSON.stringify(m.stored[1]!.record)).toBe(JSON.stringify(m.stored[0]!.record));
  });

  it('is written at most once a second while a game runs, at each game’s end and at the set’s, and dropped once stored', async () => {
    const m = setUp(1);
    const startedAt = m.clock.t;
    m.run(() => m.host.ended);
    await m.host.finished;
    const ms = m.clock.t - startedAt;
    expect(m.saved.length).toBeLessThanOrEqual(Math.ceil(ms / CHECKPOINT_EVERY_MS) + 2);
    expect(m.saved.length).toBeGreaterThan(ms / CHECKPOINT_EVERY_MS / 2);
    expect(m.saved.at(-1)!.phase).toBe('over');
    expect(m.dropped).toEqual(['ckptmatch01']);
    // A match decided but not stored when its instance died is stored by the one that takes it up: by its id (store is idempotent).
    const { restored } = m.twin(m.saved.at(-1)!);
    await restored.finished;
    expect(m.stored.map((x) => x.matchId)).toEqual(['ckptmatch01', 'ckptmatch01']);
    expect(JSON.stringify(m.stored[1]!.record)).toBe(JSON.stringify(m.stored[0]!.record));
  });

  it('refuses a checkpoint whose feed order was changed: garbage depends on it, so it is recorded and checked, never recomputed', () => {
    const m = setUp();
    m.run(() => m.host.gameIndex === 1);
    const cp = m.host.checkpoint();
    const game = cp.games[0]!;
    expect(game.joins[0].length + game.joins[1].length).toBeGreaterThan(0);
    // Each seat's whole stream fed in one go, seat 0 first: the same inputs, another arrival order.
    const last = (s: 0 | 1) => game.feeds.filter(([x]) => x === s).at(-1)![1];
    const reordered: MatchCheckpoint = { ...cp, games: [{ ...game, feeds: [[0, last(0)], [1, last(1)]] }] };
    expect(() => MatchHost.restore(reordered, { bus: createLocalBus(), onClose: () => {} })).toThrow(MatchRestoreError);
  });

  it('parses only a checkpoint: anything else read back is refused with the reason', () => {
    expect(parseCheckpoint('nope')).toMatchObject({ ok: false });
    expect(parseCheckpoint(JSON.stringify({ v: 1, matchId: 'x' }))).toMatchObject({ ok: false });
  });

  it('a match whose store fails for a moment keeps its checkpoint and is stored on a retry, never dropped unstored', async () => {
    const m = setUp(1, 2);
    m.run(() => m.host.ended);
    const settled = vi.fn();
    void m.host.finished!.then(settled);
    // Two throws (the database away): each retry waits longer; the checkpoint stays meanwhile.
    for (let i = 0; i < 50 && !settled.mock.calls.length; i++) {
      await Promise.resolve();
      await new Promise((r) => setImmediate(r));
      if (settled.mock.calls.length) break;
      expect(m.dropped).toEqual([]);
      m.clock.t += 500;
      m.fire();
    }
    expect(settled).toHaveBeenCalledWith(expect.objectContaining({ ok: true }));
    expect(m.stored).toHaveLength(1);
    expect(m.dropped).toEqual(['ckptmatch01']);
    expect(m.sent[0].findLast((x) => x.t === 'vover')).toMatchObject({ stored: true });
  });

  it('taken up 4 s after its checkpoint: what the browsers played meanwhile is on time, and nothing past the clock', () => {
    const m = setUp();
    m.run(() => (m.seats[1].game?.tickNo ?? 0) > 30);
    const cp = m.host.checkpoint();
    // Its last checkpoint; its players play on for 4 s (their batches reach it, it deals on), then it dies unwritten.
    const played: [SeatBatch[], SeatBatch[]] = [[], []];
    for (let step = 0; step < 40; step++) {
      m.clock.t += 100;
      m.fire();
      for (const s of [0, 1] as const) {
        const batch = m.seats[s].play(Math.floor(((m.clock.t - m.seats[s].startsAt) * 60) / 1000));
        if (batch) expect(m.host.inputs(s, batch)).toBeNull();
        if (batch) played[s].push(batch);
      }
    }
    expect(played[1].every((b) => b.game === 0)).toBe(true);
    expect(played[1].at(-1)!.tick).toBeGreaterThan(cp.elapsedMs * 0.06 + 200); // over 3 s played since
    // Another instance takes it up from the checkpoint written 4 s ago, both seats resume and resend.
    const { restored } = m.twin(cp, 4_000);
    for (const s of [0, 1] as const) for (const b of played[s]) expect(restored.inputs(s, b)).toBeNull();
    expect(restored.ended).toBe(false);
    // The clock moved on by the gap, not more: a batch a second past it is still ahead.
    const last = played[0].at(-1)!;
    const ahead = { game: last.game, seq: last.seq + 1, tick: Math.floor(((m.clock.t + 1_000 - m.seats[0].startsAt) * 60) / 1000), events: [] };
    expect(restored.inputs(0, ahead)).toMatchObject({ code: 'ahead_of_clock' });
  });
});
