import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, DEFAULT_HANDLING, KEYS, MODE_NAMES, RULES_VERSION, simulateReplay, type Game, type InputEvent, type Replay, type ReplayEvent } from '@/lib/engine';

const eventsArb = fc
  .array(fc.record({ gap: fc.nat({ max: 10 }), key: fc.constantFrom(...KEYS), down: fc.boolean() }), { maxLength: 300 })
  .map((xs) => {
    let tick = 0;
    return xs.map(({ gap, key, down }): ReplayEvent => ({ tick: (tick += gap), key, down }));
  });

/** Feeds a replay's inputs to `game` from its current tick up to (not including) `until`. */
function playTo(game: Game, events: readonly ReplayEvent[], until: number): void {
  let t = game.snapshot().tick;
  let i = events.findIndex((e) => e.tick >= t);
  if (i < 0) i = events.length;
  for (; t < until && !game.over; t++) {
    const inputs: InputEvent[] = [];
    for (; i < events.length && events[i]!.tick === t; i++) inputs.push({ key: events[i]!.key, down: events[i]!.down });
    game.tick(inputs);
  }
}

describe('Game.clone', () => {
  it('restore + forward equals straight simulation, wherever the clone is taken', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MODE_NAMES), fc.string({ minLength: 1, maxLength: 12 }), eventsArb, fc.nat({ max: 2500 }), (mode, seed, events, at) => {
        const replay: Replay = { rulesVersion: RULES_VERSION, mode, seed, handling: { ...DEFAULT_HANDLING }, events };
        const end = 3000;
        const straight = simulateReplay(replay, { maxTicks: end });
        const game = createGame({ mode, seed, handling: DEFAULT_HANDLING });
        playTo(game, events, at);
        const checkpoint = game.clone();
        expect(checkpoint.hash()).toBe(game.hash());
        // The original runs on; the checkpoint must not move with it.
        const before = checkpoint.hash();
        playTo(game, events, end);
        expect(checkpoint.hash()).toBe(before);
        expect(game.hash()).toBe(straight.hash);
        // Restoring the same checkpoint twice gives two equal, independent futures.
        const a = checkpoint.clone();
        const b = checkpoint.clone();
        playTo(a, events, end);
        expect(a.hash()).toBe(straight.hash);
        expect(b.hash()).toBe(before);
        playTo(b, events, end);
        expect(b.hash()).toBe(straight.hash);
        expect(simulateReplay(a.replay(), { maxTicks: end }).hash).toBe(straight.hash);
      }),
      { numRuns: 80 },
    );
  }, 60_000);

  it('clones a golden replay mid-game to the recorded end', () => {
    const golden = JSON.parse(readFileSync(new URL('../fixtures/replays/tspin-heavy.json', import.meta.url), 'utf8')) as {
      replay: Replay;
      expected: { score: number; lines: number; ticks: number; keys: number; hash: string };
    };
    const game = createGame({ mode: golden.replay.mode, seed: golden.replay.seed, handling: golden.replay.handling, rulesVersion: golden.replay.rulesVersion });
    playTo(game, golden.replay.events, Math.floor(golden.expected.ticks / 2));
    const copy = game.clone();
    playTo(copy, golden.replay.events, golden.expected.ticks + 1);
    expect(copy.hash()).toBe(golden.expected.hash);
    expect(copy.snapshot()).toMatchObject({ score: golden.expected.score, lines: golden.expected.lines, keys: golden.expected.keys });
  });
});

describe('snapshot input state', () => {
  it('lists the keys held after the tick, in KEYS order', () => {
    const game = createGame({ mode: 'sprint', seed: 'held', handling: DEFAULT_HANDLING });
    game.tick([{ key: 'softDrop', down: true }, { key: 'left', down: true }]);
    expect(game.snapshot()).toMatchObject({ held: ['left', 'softDrop'], keys: 2 });
    game.tick([{ key: 'left', down: false }]);
    expect(game.snapshot()).toMatchObject({ held: ['softDrop'], keys: 2 });
  });
});

describe('Game.inputs', () => {
  it('is the replay’s input log without a copy, and a clone logs on its own', () => {
    const game = createGame({ mode: 'marathon', seed: 'inputs', handling: { ...DEFAULT_HANDLING } });
    game.tick([{ key: 'left', down: true }]);
    game.tick([{ key: 'left', down: false }, { key: 'hardDrop', down: true }]);
    expect(game.inputs).toEqual(game.replay().events);
    // The same array each time: streaming the new inputs every ~100 ms copies nothing.
    expect(game.inputs).toBe(game.inputs);
    const copy = game.clone();
    copy.tick([{ key: 'hardDrop', down: false }]);
    expect(copy.inputs).toHaveLength(4);
    expect(game.inputs).toHaveLength(3);
  });
});
