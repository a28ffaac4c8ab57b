import { describe, expect, it } from 'vitest';
import { ACK_DEADLINE_TICKS, decodeReplay, DEFAULT_HANDLING, simulateReplay } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/bus';
import { MATCH_TIMING, MatchHost, type Timers } from '@/lib/server/live/match-host';
import type { StoreMatchResult } from '@/lib/server/versus/store';
import { verifyMatch, type VersusMatchRecord } from '@/lib/server/versus/verify';
import type { VersusBotOptions } from '@/tests/support/versus-bot';
import { VersusSeat } from '@/tests/support/versus-seat';

const SEED = 'unit-match-seed-0123456789';

/** A match host on a fake clock, two bot seats, and a store that only verifies (no database). */
function setUp(bots: [VersusBotOptions, VersusBotOptions], firstTo = 2) {
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
  const stored: VersusMatchRecord[] = [];
  const store = async (o: { record: VersusMatchRecord }): Promise<StoreMatchResult> => {
    stored.push(o.record);
    const v = verifyMatch(o.record);
    return v.ok ? { ok: true, matchId: 'm', repeated: false, ratings: null } : v;
  };
  const now = () => clock.t;
  const seats = [new VersusSeat(bots[0], now), new VersusSeat(bots[1], now)] as const;
  const sent: [ServerMessage[], ServerMessage[]] = [[], []];
  const links = ([0, 1] as const).map((s) => ({ send: (m: ServerMessage) => (sent[s].push(m), seats[s].receive(m)) }));
  const owner = (g: string) => ({ owner: { userId: null, guestId: g }, player: { name: null, guest: true }, handling: DEFAULT_HANDLING, nextCount: 5 });
  let closed = false;
  const host = new MatchHost({
    matchId: 'unitmatch01', seed: SEED, mode: 'battle', firstTo, ranked: false, seats: [owner('g0'), owner('g1')], bus: createLocalBus(),
    now, timers, store, onClose: () => (closed = true),
  });
  const away = new Set<0 | 1>();
  /** Moves the clock by `ms` in 100 ms steps: timers fire, each present seat sends one batch per step. */
  const run = (ms: number) => {
    for (let end = clock.t + ms; clock.t < end && !host.ended; ) {
      clock.t += 100;
      for (const d of due.filter((x) => x.at <= clock.t)) {
        due.splice(due.indexOf(d), 1);
        d.fn();
      }
      for (const s of [0, 1] as const) {
        if (away.has(s) || host.ended) continue;
        const upTo = Math.floor(((clock.t - seats[s].startsAt) * 60) / 1000);
        const batch = upTo > 0 ? seats[s].play(upTo) : null;
        if (batch) expect(host.inputs(s, batch)).toBeNull();
      }
    }
  };
  host.begin([links[0]!, links[1]!]);
  return { host, seats, sent, stored, run, away, links, clock, closed: () => closed };
}

describe('a live versus match on the hub', () => {
  it('plays a whole set from two input streams and stores a record whose replays re-simulate to it', async () => {
    const m = setUp([{ seed: 'a', mistakes: 0.15 }, { seed: 'b', mistakes: 0.4 }]);
    m.run(600_000);
    expect(m.host.ended).toBe(true);
    await m.host.finished;
    expect(m.stored).toHaveLength(1);
    const record = m.stored[0]!;
    const v = verifyMatch(record);
    expect(v.ok).toBe(true);
    expect(Math.max(...m.host.score)).toBe(2);
    const over = m.seats[0].over!;
    expect(over).toMatchObject({ winner: record.winnerSeat, score: m.host.score, reason: 'games', stored: true });
    expect(m.closed()).toBe(true);
    // The last game's end: each seat's game stands where the server decided it, and the rest of
    // the game's pieces go out with it (the leader's field can then be drawn to its end by anyone).
    const decided = m.sent[0].findLast((x) => x.t === 'vgame') as Extract<ServerMessage, { t: 'vgame' }>;
    for (const s of [0, 1] as const) expect(m.seats[s].game!.tickNo).toBe(decided.ticks[s]);
    const longer = [...m.seats].sort((x, y) => y.sequence.length - x.sequence.length)[0]!;
    expect(decided.pieces).toEqual(longer.sequence.slice(decided.from));
    // Every game's garbage to a seat is exactly what the other seat's replay sent, message by message.
    for (const g of record.games) {
      const sends: Array<{ tick: number; size: number }> = [];
      simulateReplay(decodeReplay(g.replays[0]), { sends });
      expect(decodeReplay(g.replays[1]).garbage!.map((x) => x.size)).toEqual(sends.slice(0, decodeReplay(g.replays[1]).garbage!.length).map((x) => x.size));
    }
  });

  it('never sends the seed, and deals no seat more than the preview plus one past its piece', () => {
    const m = setUp([{ seed: 'c', mistakes: 0.3 }, { seed: 'd', mistakes: 0.3 }]);
    m.run(20_000);
    const text = JSON.stringify(m.sent);
    expect(text).not.toContain(SEED);
    for (const s of [0, 1] as const) {
      const g = m.seats[s].game!;
      expect(g.dealt).toBeLessThanOrEqual(g.taken + 5 + 1 + 1); // a deal can land before the tick that takes it
    }
  });

  it('routes only what the server simulated: every garbage message equals the sender\'s own locks', async () => {
    const m = setUp([{ seed: 'e', mistakes: 0.05 }, { seed: 'f', mistakes: 0.05 }], 1);
    m.run(120_000);
    await m.host.finished;
    const game = m.stored[0]!.games[0]!;
    for (const s of [0, 1] as const) {
      const garbage = m.sent[s === 0 ? 1 : 0].filter((x): x is Extract<ServerMessage, { t: 'garbage' }> => x.t === 'garbage');
      const sends: Array<{ tick: number; size: number }> = [];
      simulateReplay(decodeReplay(game.replays[s]), { sends });
      expect(garbage.map((g) => g.size)).toEqual(sends.slice(0, garbage.length).map((x) => x.size));
      if (s === 0) expect(garbage.length).toBeGreaterThan(0);
    }
  });

  it('forces an acknowledgement that comes too late at its deadline, and the seat follows', async () => {
    const m = setUp([{ seed: 'g', mistakes: 0.05 }, { seed: 'h', mistakes: 0.3, ackDelay: ACK_DEADLINE_TICKS + 15 }], 1);
    m.run(600_000);
    await m.host.finished;
    expect(m.seats[1].forced).toBeGreaterThan(0);
    const deadlines = new Map(m.sent[1].filter((x) => x.t === 'garbage').map((x) => [(x as { id: number }).id, (x as { deadline: number }).deadline]));
    const applied = m.sent[1].flatMap((x) => (x.t === 'vack' ? x.applied : []));
    expect(applied.length).toBeGreaterThan(0);
    for (const [id, tick] of applied) expect(tick).toBe(deadlines.get(id)); // never later than the deadline, and the bot never acks in time
    expect(verifyMatch(m.stored[0]!).ok).toBe(true);
  });

  it('lets a dropped player come back within the window and carry on', async () => {
    const m = setUp([{ seed: 'i', mistakes: 0.3 }, { seed: 'j', mistakes: 0.3 }]);
    m.run(5_000);
    m.host.detach(1, m.links[1]!);
    m.away.add(1);
    m.run(MATCH_TIMING.resumeWindowMs - 5_000);
    expect(m.host.ended).toBe(false);
    const token = (m.sent[1].find((x) => x.t === 'match') as { resumeToken: string }).resumeToken;
    expect(m.host.resume(1, m.links[1]!, 'x'.repeat(token.length))).toBe(false);
    expect(m.host.resume(1, m.links[1]!, token)).toBe(true);
    expect(m.sent[1].some((x) => x.t === 'vresumed')).toBe(true);
    expect(m.sent[0].some((x) => x.t === 'vaway' && x.back)).toBe(true);
    m.away.delete(1);
    m.run(600_000);
    await m.host.finished;
    expect(m.stored[0]!.endReason).toBe('games');
    expect(m.stored[0]!.games.every((g) => g.reason !== 'forfeit')).toBe(true);
  });

  it("gives a player who was away at a game boundary the next game's start on return", async () => {
    const m = setUp([{ seed: 'i2', mistakes: 0.3 }, { seed: 'j2', mistakes: 0.3 }]);
    while (!m.sent[1].some((x) => x.t === 'vgame') && !m.host.ended) m.run(100);
    m.host.detach(1, m.links[1]!);
    m.away.add(1);
    m.run(2 * MATCH_TIMING.betweenGamesMs + 1_500); // the pause, the next game's countdown, and its first 1.5 s: all without this seat
    const token = (m.sent[1].find((x) => x.t === 'match') as { resumeToken: string }).resumeToken;
    const from = m.sent[1].length;
    expect(m.host.resume(1, m.links[1]!, token)).toBe(true);
    const back = m.sent[1].slice(from);
    const start = back.find((x) => x.t === 'vstart') as Extract<ServerMessage, { t: 'vstart' }>;
    expect(start).toMatchObject({ game: 1 });
    expect(start.startsInMs).toBeLessThan(0);
    expect(back.findIndex((x) => x.t === 'vstart')).toBeLessThan(back.findIndex((x) => x.t === 'vresumed'));
    m.away.delete(1);
    m.run(600_000);
    await m.host.finished;
    expect(m.stored[0]!.games[1]!.reason).not.toBe('forfeit');
    expect(verifyMatch(m.stored[0]!).ok).toBe(true);
  });

  it('shows a spectator who comes between games the game just decided, then the next one from its start', async () => {
    const m = setUp([{ seed: 'i3', mistakes: 0.3 }, { seed: 'j3', mistakes: 0.3 }]);
    while (!m.sent[1].some((x) => x.t === 'vgame') && !m.host.ended) m.run(100);
    const decided = m.sent[1].find((x) => x.t === 'vgame') as Extract<ServerMessage, { t: 'vgame' }>;
    const between = m.host.watching() as Extract<ServerMessage, { t: 'vwatching' }>;
    expect(between.game).toBe(decided.game);
    // Both fields as they were decided: each seat at the tick the decision gave it, with its inputs.
    expect(between.seats.map((s) => s.tick)).toEqual(decided.ticks);
    expect(between.seats.every((s) => s.events.length > 0)).toBe(true);
    m.run(MATCH_TIMING.betweenGamesMs + 100);
    const next = m.host.watching() as Extract<ServerMessage, { t: 'vwatching' }>;
    expect(next.game).toBe(decided.game + 1);
    expect(next.holes).not.toEqual(between.holes);
    expect(next.seats.every((s) => s.events.length === 0 && s.tick === 0)).toBe(true);
  });

  it('gives the game to the opponent when the window runs out, and the set when the player is still away', async () => {
    const m = setUp([{ seed: 'k', mistakes: 0.3 }, { seed: 'l', mistakes: 0.3 }]);
    m.run(5_000);
    m.host.detach(0, m.links[0]!);
    m.away.add(0);
    m.run(MATCH_TIMING.resumeWindowMs + MATCH_TIMING.betweenGamesMs + 1_000);
    await m.host.finished;
    const record = m.stored[0]!;
    expect(record).toMatchObject({ winnerSeat: 1, endReason: 'forfeit' });
    expect(record.games[0]).toMatchObject({ winnerSeat: 1, reason: 'forfeit' });
    expect(verifyMatch(record).ok).toBe(true);
  });

  it('gives the game to the opponent of a connected seat that stops sending', async () => {
    const m = setUp([{ seed: 'q', mistakes: 0.3 }, { seed: 'r', mistakes: 0.3 }], 1);
    m.run(5_000);
    m.away.add(1); // still connected, silent
    m.run(MATCH_TIMING.maxLagMs + 2 * MATCH_TIMING.lagCheckMs);
    await m.host.finished;
    expect(m.stored[0]!.games[0]).toMatchObject({ winnerSeat: 0, reason: 'forfeit' });
    expect(m.stored[0]!.endReason).toBe('games');
  });

  it('loses the match for the player who leaves', async () => {
    const m = setUp([{ seed: 'm', mistakes: 0.3 }, { seed: 'n', mistakes: 0.3 }]);
    m.run(4_000);
    m.host.leave(1);
    await m.host.finished;
    expect(m.stored[0]).toMatchObject({ winnerSeat: 0, endReason: 'forfeit' });
    expect(m.seats[1].over).toMatchObject({ winner: 0, reason: 'forfeit' });
  });

  it('ends the match for a seat whose stream runs ahead of the clock', async () => {
    const m = setUp([{ seed: 'o' }, { seed: 'p' }]);
    m.run(MATCH_TIMING.firstCountdownMs + 1_000);
    const seat = m.seats[0];
    const batch = { game: 0, seq: seat.seq + 1, tick: seat.game!.tickNo + 60, events: [], acks: [] };
    expect(m.host.inputs(0, batch)).toMatchObject({ code: 'ahead_of_clock' });
    await m.host.finished;
    expect(m.stored[0]).toMatchObject({ winnerSeat: 1, endReason: 'forfeit' });
  });
});
