import { describe, expect, it } from 'vitest';
import { decodeReplay, DEFAULT_HANDLING, simulateReplay } from '@/lib/engine';
import { serverMessageSchema, type ServerMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { MATCH_TIMING, MatchHost } from '@/lib/server/live/match/match-host';
import type { SeatRatings, StoreMatchResult } from '@/lib/server/versus/store';
import { verifyMatch, type VersusMatchRecord } from '@/lib/server/versus/verify';
import type { VersusBotOptions } from '@/tests/support/versus-bot';
import { VersusSeat, type SeatBatch } from '@/tests/support/versus-seat';
import { fakeTimers } from '@/tests/support/fake-timers';
import { stallProbe } from '@/tests/support/stall-probe';
import { SpectatorFeed } from '@/lib/client/live/spectator';

const SEED = 'unit-match-seed-0123456789';

/** A match host on a fake clock, two bot seats, and a store that only verifies (no database); given `ratings`, a ranked match the store rates so. */
function setUp(bots: [VersusBotOptions, VersusBotOptions], firstTo = 2, nextCounts: [number, number] = [5, 5], ratings: [SeatRatings, SeatRatings] | null = null) {
  const { clock, timers, fire } = fakeTimers();
  const stored: VersusMatchRecord[] = [];
  const store = async (o: { record: VersusMatchRecord }): Promise<StoreMatchResult> => {
    stored.push(o.record);
    const v = verifyMatch(o.record);
    return v.ok ? { ok: true, matchId: 'm', repeated: false, ratings, noContest: false } : v;
  };
  const now = () => clock.t;
  const seats = [new VersusSeat(bots[0], now), new VersusSeat(bots[1], now)] as const;
  const sent: [ServerMessage[], ServerMessage[]] = [[], []];
  // Parsed as the browser parses it: every message the host sends must fit the protocol's schemas.
  const links = ([0, 1] as const).map((s) => ({ send: (m: ServerMessage) => (sent[s].push(serverMessageSchema.parse(m)), seats[s].receive(m)) }));
  const owner = (g: string, nextCount: number) => ({ owner: { userId: null, guestId: g }, player: { name: null, guest: true }, handling: DEFAULT_HANDLING, nextCount });
  let closed = false;
  const host = new MatchHost({
    matchId: 'unitmatch01', seed: SEED, mode: 'battle', firstTo, ranked: ratings !== null, seats: [owner('g0', nextCounts[0]), owner('g1', nextCounts[1])], bus: createLocalBus(),
    now, timers, stalls: stallProbe(now, timers), store, onClose: () => (closed = true),
  });
  const away = new Set<0 | 1>();
  /** Batches in flight per seat: with `latency` set, a seat's batch reaches the host that many steps later. */
  const inFlight: [SeatBatch[], SeatBatch[]] = [[], []];
  const latency: [number, number] = [0, 0];
  /** Moves the clock by `ms` in 100 ms steps: timers fire, each present seat sends one batch per step. */
  /** Each present seat plays to the clock and sends its batch; those `latency` steps old arrive. */
  const deliver = () => {
    for (const s of [0, 1] as const) {
      if (away.has(s) || host.ended) continue;
      const upTo = Math.floor(((clock.t - seats[s].startsAt) * 60) / 1000);
      const batch = upTo > 0 ? seats[s].play(upTo) : null;
      if (batch) inFlight[s].push(batch);
      while (inFlight[s].length > latency[s] && !host.ended) expect(host.inputs(s, inFlight[s].shift()!)).toBeNull();
    }
  };
  const run = (ms: number) => {
    for (let end = clock.t + ms; clock.t < end && !host.ended; ) {
      clock.t += 100;
      fire();
      deliver();
    }
  };
  /**
   * The host's process stalls `ms`: nothing runs; then the timers due run first, late, as Node runs
   * them before the socket reads that waited behind the stall, and then the seats' batches are read.
   */
  const stall = (ms: number) => {
    clock.t += ms;
    fire();
    deliver();
  };
  host.begin([links[0]!, links[1]!]);
  return { host, seats, sent, stored, run, stall, away, links, clock, latency, closed: () => closed };
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

  it('ranked: tells both seats each one’s rating change, the band it moved from and to, and how far into placement it is', async () => {
    const r = (rating: number, rd: number) => ({ rating, rd, vol: 0.06 });
    const m = setUp([{ seed: 'e', mistakes: 0.05 }, { seed: 'f', mistakes: 0.05 }], 1, [5, 5], [
      { before: r(1600, 80), after: r(1612, 79), matches: { before: 30, after: 31 }, bands: { before: 'gold', after: 'platinum' } },
      // Still in placement; its edges could not be read: no bands said.
      { before: r(1500, 300), after: r(1460, 280), matches: { before: 3, after: 4 }, bands: null },
    ]);
    m.run(120_000);
    await m.host.finished;
    const expected = [
      { before: 1600, after: 1612, rdAfter: 79, bands: ['gold', 'platinum'] },
      { before: 1500, after: 1460, rdAfter: 280, placement: { played: 4, of: 10 } },
    ];
    for (const s of [0, 1] as const) expect(m.sent[s].findLast((x) => x.t === 'vover')).toMatchObject({ ranked: true, stored: true, ratings: expected });
    expect(m.seats[0].over!.ratings).toEqual(expected);
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

  it('puts each attack in the receiver’s game at the tick it names, whatever the receiver would choose, and the seat follows', async () => {
    const m = setUp([{ seed: 'e', mistakes: 0.05 }, { seed: 'f', mistakes: 0.05 }], 1);
    m.latency[0] = m.latency[1] = 2; // each browser 200 ms ahead of the server's copy of its game
    m.run(600_000);
    await m.host.finished;
    const record = m.stored[0]!;
    expect(verifyMatch(record).ok).toBe(true);
    for (const s of [0, 1] as const) {
      const messages = m.sent[s].filter((x): x is Extract<ServerMessage, { t: 'garbage' }> => x.t === 'garbage');
      // The message's tick is the server's tick for this seat when it was routed: after the last ack, at most the next.
      let acked = 0;
      for (const x of m.sent[s]) {
        if (x.t === 'ack') acked = x.tick;
        if (x.t === 'garbage') expect(x.tick).toBeGreaterThanOrEqual(acked);
      }
      // The stored replay holds exactly these messages at exactly these ticks, and so does the seat's game.
      const replay = decodeReplay(record.games[0]!.replays[s]);
      expect(replay.garbage).toEqual(messages.map((x) => ({ tick: x.tick, size: x.size })));
      expect(m.seats[s].game!.replay().garbage).toEqual(replay.garbage!.filter((g) => g.tick < m.seats[s].game!.tickNo));
    }
    const hit = ([0, 1] as const).filter((s) => m.sent[s].some((x) => x.t === 'garbage'));
    expect(hit.length).toBeGreaterThan(0);
    // The browser plays ahead of the server's copy, so messages name ticks it has played: it followed.
    expect(Math.max(...hit.map((s) => m.seats[s].replayed))).toBeGreaterThan(0);
  });

  it('sends no generator state: no seed and no hole state in any message, to a player or a spectator', () => {
    const m = setUp([{ seed: 'c2', mistakes: 0.1 }, { seed: 'd2', mistakes: 0.1 }]);
    const watched: ServerMessage[] = [];
    m.run(20_000);
    watched.push(m.host.watching());
    const text = JSON.stringify([...m.sent[0], ...m.sent[1], ...watched]);
    expect(text).not.toContain(SEED);
    expect(text).not.toMatch(/"holes"/);
    expect(m.sent[0].some((x) => x.t === 'garbage' || x.t === 'vframe')).toBe(true);
  });

  it('shows a seat the other’s play only up to where the other held pieces this seat has been dealt too', () => {
    // Seat 0 sees six pieces ahead, seat 1 one: seat 0 always holds pieces seat 1 has not been dealt.
    const m = setUp([{ seed: 'w', mistakes: 0.2 }, { seed: 'x', mistakes: 0.2 }], 1, [6, 1]);
    // Seat 0's [tick its batch ended, pieces dealt after it], from its first deal (sent as the match began).
    let dealt0 = m.seats[0].sequence.length;
    const knows: Array<[number, number]> = [[0, dealt0]];
    let checked = 0;
    type Send = (msg: ServerMessage, wait?: number) => void;
    const original: Send = m.links[1]!.send;
    m.links[0]!.send = ((orig: Send) => (msg: ServerMessage, wait?: number) => {
      if (msg.t === 'ack') knows.push([msg.tick, dealt0]);
      if (msg.t === 'deal') {
        dealt0 = msg.from + msg.pieces.length;
        knows[knows.length - 1]![1] = dealt0;
      }
      orig(msg, wait);
    })(m.links[0]!.send as Send);
    m.links[1]!.send = (msg: ServerMessage, wait?: number) => {
      if (msg.t === 'vframe' && msg.seat === 0) {
        // What seat 1 holds now; seat 0's play shown must stop before seat 0 held more.
        const seen = Math.max(m.seats[1].sequence.length, msg.from + msg.pieces.length);
        const limit = knows.find(([, n]) => n > seen)?.[0] ?? Infinity;
        expect(msg.tick).toBeLessThanOrEqual(limit);
        for (const [t] of msg.events) expect(t).toBeLessThan(limit);
        checked++;
      }
      original(msg, wait);
    };
    m.run(30_000);
    expect(checked).toBeGreaterThan(10);
  });

  it('refuses a padded stream as it arrives: inputs no person makes forfeit the match', async () => {
    const m = setUp([{ seed: 'pad0', mistakes: 0.3 }, { seed: 'pad1', mistakes: 0.3 }]);
    m.run(MATCH_TIMING.firstCountdownMs + 2_000);
    const seat = m.seats[1];
    const from = seat.game!.tickNo;
    // 50 presses and releases of a key that does nothing here, all within 50 ticks.
    const events = Array.from({ length: 100 }, (_, i): [number, number, 0 | 1] => [from + (i >> 1), 7, (i % 2 === 0 ? 1 : 0) as 0 | 1]);
    const result = m.host.inputs(1, { game: 0, seq: seat.seq + 1, tick: from + 50, events });
    expect(result).toMatchObject({ code: 'bad_inputs', message: expect.stringMatching(/humanly possible.*forfeited/) });
    await m.host.finished;
    expect(m.stored[0]).toMatchObject({ winnerSeat: 0, endReason: 'forfeit' });
    expect(verifyMatch(m.stored[0]!).ok).toBe(true);
  });

  it('lets a dropped player come back within the window and carry on', async () => {
    const m = setUp([{ seed: 'i', mistakes: 0.3 }, { seed: 'j', mistakes: 0.3 }]);
    m.run(5_000);
    m.host.detach(1, m.links[1]!);
    m.away.add(1);
    m.run(MATCH_TIMING.awayPerGameMs - 5_000);
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

  it('excuses time away only up to a budget per game and per match: past it the window closes and the game is lost', async () => {
    const m = setUp([{ seed: 'ab0', mistakes: 0, pace: 60 }, { seed: 'ab1', mistakes: 0, pace: 60 }], 3);
    const token = () => (m.sent[1].find((x) => x.t === 'match') as { resumeToken: string }).resumeToken;
    const drop = (ms: number) => {
      m.host.detach(1, m.links[1]!);
      m.away.add(1);
      m.run(ms);
    };
    const back = () => {
      expect(m.host.resume(1, m.links[1]!, token())).toBe(true);
      m.away.delete(1);
    };
    m.run(MATCH_TIMING.firstCountdownMs + 3_000);
    // Two absences of 6 s: 12 s of the 15 s budget. The third window offers only the 3 s left.
    for (let i = 0; i < 2; i++) {
      drop(6_000);
      back();
      m.run(1_000);
    }
    const before = m.sent[0].length;
    m.host.detach(1, m.links[1]!);
    m.away.add(1);
    const away = m.sent[0].slice(before).find((x) => x.t === 'vaway') as Extract<ServerMessage, { t: 'vaway' }>;
    // The 3 s left, then the lag a connected seat may have: past both the game is lost anyway.
    expect(away.windowMs).toBe(MATCH_TIMING.awayPerGameMs - 12_000 + MATCH_TIMING.maxLagMs.battle);
    m.run(away.windowMs + 200);
    expect(m.sent[0].filter((x) => x.t === 'vgame')).toEqual([expect.objectContaining({ game: 0, winner: 0, reason: 'forfeit' })]);
    // Back for the next game: the match's budget (30 s) has 15 s left, a game's 15 s.
    back();
    m.run(MATCH_TIMING.betweenGamesMs * 2 + 3_000);
    const nextBefore = m.sent[0].length;
    m.host.detach(1, m.links[1]!);
    const next = m.sent[0].slice(nextBefore).find((x) => x.t === 'vaway') as Extract<ServerMessage, { t: 'vaway' }>;
    expect(next.windowMs).toBe(Math.min(MATCH_TIMING.awayPerGameMs, MATCH_TIMING.awayPerMatchMs - 15_000) + MATCH_TIMING.maxLagMs.battle);
  });

  it('excuses no time away from before the game clock started, and only while the seat is that far behind', async () => {
    // Away from just after game 0 was decided until 1 s into game 1: 1 s excused, not the pause and the countdown too.
    const m = setUp([{ seed: 'bt0', mistakes: 0.3 }, { seed: 'bt1', mistakes: 0.3 }], 3);
    while (!m.sent[1].some((x) => x.t === 'vgame') && !m.host.ended) m.run(100);
    m.host.detach(1, m.links[1]!);
    m.away.add(1);
    m.run(MATCH_TIMING.betweenGamesMs * 2 + 1_000);
    const token = (m.sent[1].find((x) => x.t === 'match') as { resumeToken: string }).resumeToken;
    expect(m.host.resume(1, m.links[1]!, token)).toBe(true);
    expect(m.host.seats[1].stream.excusedMs).toBeLessThanOrEqual(1_100);
    // Connected and silent from here: the game is lost once it trails by the lag bound (plus that second), not later.
    const decided = m.sent[0].filter((x) => x.t === 'vgame').length;
    m.run(MATCH_TIMING.maxLagMs.battle + 1_000 + 2 * MATCH_TIMING.lagCheckMs);
    const games = m.sent[0].filter((x): x is Extract<ServerMessage, { t: 'vgame' }> => x.t === 'vgame');
    expect(games.length).toBe(decided + 1);
    expect(games.at(-1)).toMatchObject({ game: 1, winner: 0, reason: 'forfeit' });
  });

  it('tells the opponent a whole number of milliseconds of window, however fractional the host\'s clock', () => {
    const m = setUp([{ seed: 'fr0', mistakes: 0.3 }, { seed: 'fr1', mistakes: 0.3 }]);
    m.run(MATCH_TIMING.firstCountdownMs + 2_000);
    const token = (m.sent[1].find((x) => x.t === 'match') as { resumeToken: string }).resumeToken;
    m.host.detach(1, m.links[1]!);
    // performance.now() has fractions: the time away, and so the budget left, carry them.
    m.clock.t += 1_234.567;
    expect(m.host.resume(1, m.links[1]!, token)).toBe(true);
    m.host.detach(1, m.links[1]!);
    const last = m.sent[0].filter((x): x is Extract<ServerMessage, { t: 'vaway' }> => x.t === 'vaway').at(-1)!;
    expect(last).toMatchObject({ back: false, windowMs: Math.ceil(MATCH_TIMING.awayPerGameMs - 1_234.567 + MATCH_TIMING.maxLagMs.battle) });
  });

  it('keeps no excused time for a seat that caught up: a client that played on while away cannot bank it', () => {
    const m = setUp([{ seed: 'bk0', mistakes: 0.3, pace: 30 }, { seed: 'bk1', mistakes: 0.3, pace: 30 }]);
    m.run(MATCH_TIMING.firstCountdownMs + 2_000);
    m.host.detach(1, m.links[1]!);
    m.away.add(1);
    m.run(8_000);
    const token = (m.sent[1].find((x) => x.t === 'match') as { resumeToken: string }).resumeToken;
    expect(m.host.resume(1, m.links[1]!, token)).toBe(true);
    expect(m.host.seats[1].stream.excusedMs).toBeGreaterThan(7_000);
    // What a modified client does: it kept its clock running while away and now sends those ticks
    // (pieces fall by themselves), so it is not behind; without a clamp it would keep 8 s to think later.
    const seat = m.seats[1];
    const upTo = Math.floor(((m.clock.t - seat.startsAt) * 60) / 1000) - 6;
    expect(m.host.inputs(1, { game: 0, seq: seat.seq + 1, tick: upTo, events: [] })).toBeNull();
    expect(m.host.seats[1].stream.excusedMs).toBeLessThan(200);
  });

  it('starts every game with the pieces both seats hold, so a spectator can draw it from the first message', () => {
    const m = setUp([{ seed: 'sp0', mistakes: 0.4 }, { seed: 'sp1', mistakes: 0.4 }], 2, [6, 1]);
    const first = m.host.watching() as Extract<ServerMessage, { t: 'vwatching' }>;
    expect(first.seats.every((x) => x.pieces.length > 0)).toBe(true);
    const feed = new SpectatorFeed({ mode: first.mode, rulesVersion: first.rulesVersion, handling: first.handling[0], nextCount: first.nextCount, ...first.seats[0], paused: false });
    expect(feed.tick).toBe(0);
    // Both seats are dealt as far ahead as the longer preview (6), whatever their own.
    for (const s of [0, 1] as const) expect(m.seats[s].sequence.length).toBe(1 + 6 + 1);
    m.run(10_000);
    for (const s of [0, 1] as const) expect(m.seats[s].game!.dealt - m.seats[s].game!.taken).toBeLessThanOrEqual(6 + 1 + 1);
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
    m.run(MATCH_TIMING.maxLagMs.battle + 2 * MATCH_TIMING.lagCheckMs);
    await m.host.finished;
    expect(m.stored[0]!.games[0]).toMatchObject({ winnerSeat: 0, reason: 'forfeit' });
    expect(m.stored[0]!.endReason).toBe('games');
  });

  it('loses no game for a stall of the host itself: each seat is excused the time our stall probe ran late', async () => {
    const m = setUp([{ seed: 'q', mistakes: 0.3 }, { seed: 'r', mistakes: 0.3 }], 1);
    m.run(5_000);
    m.stall(MATCH_TIMING.maxLagMs.battle + 2 * MATCH_TIMING.lagCheckMs);
    m.run(500);
    const forfeits = () => m.sent[0].filter((x) => x.t === 'vgame' && x.reason === 'forfeit');
    expect(forfeits()).toEqual([]);
    // A seat that really stops is still judged, by its own time: the stall is excused, nothing more.
    m.away.add(1);
    m.stall(MATCH_TIMING.maxLagMs.battle + 2 * MATCH_TIMING.lagCheckMs);
    m.run(MATCH_TIMING.maxLagMs.battle - MATCH_TIMING.lagCheckMs);
    expect(forfeits()).toEqual([]);
    m.run(MATCH_TIMING.maxLagMs.battle + MATCH_TIMING.lagCheckMs);
    expect(forfeits()).toEqual([expect.objectContaining({ winner: 0 })]);
  });

  it('excuses no delay under STALL_MS: a steady slow loop is no credit for a seat that stops', async () => {
    // Seat 0 plays slowly enough that one read a second never leaves it short of pieces.
    const m = setUp([{ seed: 'q', mistakes: 0.3, pace: 8 }, { seed: 'r', mistakes: 0.3 }], 1);
    m.run(5_000);
    m.away.add(1); // still connected, silent
    const forfeits = () => m.sent[0].filter((x) => x.t === 'vgame' && x.reason === 'forfeit');
    // Each lag check runs late by up to 950 ms (under STALL_MS), again and again.
    for (let t = 0; t < MATCH_TIMING.maxLagMs.battle + 1_500 && forfeits().length === 0; t += 950) m.stall(950);
    expect(forfeits()).toEqual([expect.objectContaining({ winner: 0 })]);
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
    const batch = { game: 0, seq: seat.seq + 1, tick: seat.game!.tickNo + 60, events: [] };
    expect(m.host.inputs(0, batch)).toMatchObject({ code: 'ahead_of_clock' });
    await m.host.finished;
    expect(m.stored[0]).toMatchObject({ winnerSeat: 1, endReason: 'forfeit' });
  });
});
