import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDealtGame, createStreamSim, DEFAULT_HANDLING, pieceSequence, RULES_VERSION, simulateReplay } from '@/lib/engine';
import type { DealtGame, InputEvent, PieceType, Replay, ReplayEvent } from '@/lib/engine';
import { playGame } from '@/tests/support/bot';
import { holeSequence } from '@/lib/engine/cheese';
import { HOLES_AHEAD } from '@/lib/engine/deal';
import { cheeseOf, MODES } from '@/lib/engine/modes';

const dir = new URL('../fixtures/replays/', import.meta.url);
const goldens = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { name: string; replay: Replay; maxTicks?: number; expected: { hash: string } })
  // A game that never ends (Zen, pinned at a tick) is practice only: never dealt live.
  .filter((g) => g.maxTicks === undefined);

/** What the server does: keep the browser `ahead` pieces past its current one, dealing in order. */
function dealer(seed: string, rulesVersion: number = RULES_VERSION) {
  const next = pieceSequence(seed, rulesVersion);
  const dealt: PieceType[] = [];
  return {
    dealt,
    upTo(count: number): { from: number; pieces: PieceType[] } {
      const from = dealt.length;
      while (dealt.length < count) dealt.push(next());
      return { from, pieces: dealt.slice(from) };
    },
  };
}

/** Dig: the seed's hole columns as a host deals them, the rows in the field and HOLES_AHEAD more. */
function holeDealer(replay: Replay) {
  const cheese = cheeseOf(MODES[replay.mode]);
  const next = cheese ? holeSequence(replay.seed, replay.mode) : () => 0;
  const all = Array.from({ length: cheese?.rows ?? 0 }, next);
  const first = all.slice(0, Math.min(cheese?.field ?? 0, all.length) + HOLES_AHEAD);
  return { all, first, upTo: (game: DealtGame) => game.dealHoles(game.holesDealt, all.slice(game.holesDealt, game.holesRisen + HOLES_AHEAD)) };
}

/** Plays a replay's inputs through a dealt game; `lag` ticks pass before a deal reaches the game. */
function playDealt(replay: Replay, lag = 0): { game: DealtGame; waited: number; seen: PieceType[] } {
  const nextCount = replay.nextCount ?? 5;
  const d = dealer(replay.seed, replay.rulesVersion);
  const holes = holeDealer(replay);
  const game = createDealtGame({ mode: replay.mode, handling: replay.handling, nextCount, rulesVersion: replay.rulesVersion, holes: holes.first }, d.upTo(nextCount + 2).pieces);
  const inFlight: Array<{ at: number; from: number; pieces: PieceType[] }> = [];
  const byTick = new Map<number, InputEvent[]>();
  for (const e of replay.events) byTick.set(e.tick, [...(byTick.get(e.tick) ?? []), { key: e.key, down: e.down }]);
  let waited = 0;
  for (let frame = 0; !game.over && frame < 300_000; frame++) {
    for (const m of inFlight.filter((m) => m.at <= frame)) game.deal(m.from, m.pieces);
    inFlight.splice(0, inFlight.length, ...inFlight.filter((m) => m.at > frame));
    if (frame >= lag) holes.upTo(game);
    expect(game.holesDealt - game.holesRisen).toBeLessThanOrEqual(HOLES_AHEAD);
    const before = game.snapshot().tick;
    if (!game.ready) waited++;
    game.tick(game.ready ? byTick.get(before) : undefined);
    // The server never lets the browser hold more than the preview plus one past its current piece.
    const want = game.taken + nextCount + 1;
    if (want > d.dealt.length + inFlight.reduce((n, m) => n + m.pieces.length, 0)) inFlight.push({ at: frame + lag, ...d.upTo(want) });
    expect(game.dealt - game.taken).toBeLessThanOrEqual(nextCount + 1);
  }
  return { game, waited, seen: d.dealt };
}

describe('dealt piece source', () => {
  it.each(goldens.map((g) => [g.name, g] as const))('%s: same sequence and same hash as the seed', (_name, g) => {
    const { game } = playDealt(g.replay);
    expect(game.over).toBe(true);
    expect(game.hash()).not.toBe(g.expected.hash); // no seed, no full hash
    game.reveal(g.replay.seed);
    expect(game.hash()).toBe(g.expected.hash);
    expect(simulateReplay(game.replay()).hash).toBe(g.expected.hash);
    expect(game.replay().events).toEqual(g.replay.events);
  });

  it('refuses to reveal a seed whose sequence differs from what was dealt', () => {
    const g = goldens[0]!;
    const { game } = playDealt(g.replay);
    expect(() => game.reveal(`${g.replay.seed}x`)).toThrow(/not the sequence/);
  });

  it('a starved queue stops the clock until the next deal', () => {
    const seq = pieceSequence('starve', RULES_VERSION);
    const first = [seq(), seq(), seq(), seq()];
    const game = createDealtGame({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 2 }, first);
    game.tick([{ key: 'hardDrop', down: true }]);
    game.tick([{ key: 'hardDrop', down: false }]);
    expect(game.ready).toBe(true);
    game.tick([{ key: 'hardDrop', down: true }]);
    expect(game.ready).toBe(false);
    const tick = game.snapshot().tick;
    for (let i = 0; i < 30; i++) game.tick([{ key: 'left', down: i % 2 === 0 }]);
    expect(game.snapshot().tick).toBe(tick);
    expect(game.snapshot().next).toHaveLength(1);
    game.deal(4, [seq()]);
    expect(game.ready).toBe(true);
    game.tick();
    expect(game.snapshot().tick).toBe(tick + 1);
    // The presses made while waiting were applied on the first tick that ran, in order.
    expect(game.replay().events.filter((e) => e.key === 'left')).toHaveLength(30);
    expect(game.replay().events.filter((e) => e.key === 'left').every((e) => e.tick === tick)).toBe(true);
  });

  it('with maxInputsPerTick, presses that waited spread over the next ticks: no tick holds more than a person makes', () => {
    const seq = pieceSequence('starve', RULES_VERSION);
    const first = [seq(), seq(), seq(), seq()];
    const game = createDealtGame({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 2, maxInputsPerTick: 6 }, first);
    game.tick([{ key: 'hardDrop', down: true }]);
    game.tick([{ key: 'hardDrop', down: false }]);
    game.tick([{ key: 'hardDrop', down: true }]); // held back: short of pieces
    expect(game.ready).toBe(false);
    for (let i = 0; i < 30; i++) game.tick([{ key: 'left', down: i % 2 === 0 }]);
    game.deal(4, [seq(), seq(), seq()]);
    for (let i = 0; i < 10; i++) game.tick([{ key: 'rotateCW', down: i % 2 === 0 }]);
    const perTick = new Map<number, number>();
    for (const e of game.replay().events) perTick.set(e.tick, (perTick.get(e.tick) ?? 0) + 1);
    expect(Math.max(...perTick.values())).toBe(6);
    expect(game.replay().events.filter((e) => e.key === 'left')).toHaveLength(30);
    // In the order they were pressed: every left before the first rotation pressed after them.
    const keys = game.replay().events.map((e) => e.key);
    expect(keys.lastIndexOf('left')).toBeLessThan(keys.indexOf('rotateCW'));
    expect(game.carried).toEqual([]);
  });

  it('deals are idempotent and gaps are refused', () => {
    const seq = pieceSequence('gaps', RULES_VERSION);
    const pieces = Array.from({ length: 8 }, seq);
    const game = createDealtGame({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 }, pieces.slice(0, 7));
    game.deal(0, pieces.slice(0, 7));
    expect(game.dealt).toBe(7);
    expect(() => game.deal(9, ['T'])).toThrow(/deal starts at piece 9/);
    game.deal(6, pieces.slice(6, 8));
    expect(game.dealt).toBe(8);
  });
});

describe('property: a live game with dealing is simulateReplay', () => {
  it('bot games with network lag: dealt game, stream in random batches and simulateReplay agree', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 30 }), (seed, lag, batch) => {
        const { replay } = playGame({ mode: 'sprint', seed, maxPieces: 25 });
        const expected = simulateReplay(replay);
        const { game } = playDealt(replay, lag);
        game.reveal(seed);
        const played = game.replay();
        expect(simulateReplay(played).hash).toBe(game.hash());
        // Waiting moved inputs to later ticks, never changed which pieces were played.
        expect(played.events.length).toBe(replay.events.length);
        if (lag === 0) expect(game.hash()).toBe(expected.hash);
        const sim = createStreamSim(played);
        const evs: ReplayEvent[] = played.events;
        const end = simulateReplay(played).ticks;
        for (let t = 0; t < end; t += batch) sim.feed(evs.filter((e) => e.tick >= t && e.tick < Math.min(t + batch, end)), Math.min(t + batch, end));
        expect(sim.result()).toEqual(simulateReplay(played));
        expect(sim.playHash()).toBe(game.playHash());
      }),
      { numRuns: 25 },
    );
  }, 60_000); // 25 bot games: seconds on a loaded machine

  it('the server stream and the dealt game share the play hash tick by tick', () => {
    const { replay } = playGame({ mode: 'sprint', seed: 'hash', maxPieces: 12 });
    const { game } = playDealt({ ...replay, events: [] });
    expect(game.over).toBe(true); // ran under gravity to a top out
    const d = dealer('hash');
    const dealt = createDealtGame({ mode: 'sprint', handling: replay.handling, nextCount: 5 }, d.upTo(7).pieces);
    const sim = createStreamSim({ mode: 'sprint', seed: 'hash', handling: replay.handling, nextCount: 5 });
    for (let t = 0; t < 600 && !dealt.over; t++) {
      const evs = replay.events.filter((e) => e.tick === t);
      dealt.tick(evs);
      sim.feed(evs, t + 1);
      const more = d.upTo(dealt.taken + 6);
      dealt.deal(more.from, more.pieces);
      expect(sim.playHash(), `tick ${t}`).toBe(dealt.playHash());
      const snap = dealt.snapshot();
      const counters = { score: snap.score, lines: snap.lines, level: snap.level, pieces: snap.pieces, tick: snap.tick };
      expect([dealt.stats(), sim.stats()], `tick ${t}: the counters without a snapshot`).toEqual([counters, counters]);
    }
    expect(sim.taken).toBeGreaterThan(10);
  });
});
