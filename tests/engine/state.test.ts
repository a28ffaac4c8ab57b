import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createStreamSim, DEFAULT_HANDLING, GameConfigError, KEYS, MODE_NAMES, pieceSequence, restoreDealtGame, RULES_VERSION, VERSUS_RULES_VERSION,
  type DealtGame, type GameState, type InputEvent, type Mode, type PieceType, type ReplayEvent, type StreamSim,
} from '@/lib/engine';
import { stateOfCore, STATE_FIELDS } from '@/lib/engine/state';
import { playHashCore } from '@/lib/engine/hash';
import { createCore } from '@/lib/engine/setup';
import { holeState } from '@/lib/engine/garbage';
import { holeSequence } from '@/lib/engine/cheese';
import { HOLES_AHEAD } from '@/lib/engine/deal';
import { cheeseOf, MODES } from '@/lib/engine/modes';
import { seedState } from '@/lib/engine/rng';
import { playGame } from '@/tests/support/bot';

// A spectator starts from the server's game as plain data (lib/engine/state.ts), not from its
// whole input log: restored and fed the same inputs, it must stay the server's game exactly.

const eventsArb = fc
  .array(fc.record({ gap: fc.nat({ max: 10 }), key: fc.constantFrom(...KEYS), down: fc.boolean() }), { maxLength: 300 })
  .map((xs) => {
    let tick = 0;
    return xs.map(({ gap, key, down }): ReplayEvent => ({ tick: (tick += gap), key, down }));
  });

const NEXT = 5;

/** Dig: the seed's hole columns, all of them (empty in other modes). */
function holesOf(mode: Mode, seed: string): number[] {
  const rows = cheeseOf(MODES[mode])?.rows ?? 0;
  const next = rows > 0 ? holeSequence(seed, mode) : () => 0;
  return Array.from({ length: rows }, next);
}

/** The server's side: the seeded stream, and the pieces it dealt (the preview plus one past the current one). */
function server(mode: Mode, seed: string) {
  const sim = createStreamSim({ mode, seed, handling: DEFAULT_HANDLING, nextCount: NEXT, rulesVersion: RULES_VERSION });
  const draw = pieceSequence(seed, RULES_VERSION);
  const dealt: PieceType[] = [];
  const topUp = () => {
    while (dealt.length < sim.taken + NEXT + 1) dealt.push(draw());
  };
  topUp();
  return { sim, dealt, topUp, holes: holesOf(mode, seed) };
}

/** The spectator's side: what the server sends, through JSON as on the socket. */
function spectatorOf(mode: Mode, sim: StreamSim, dealt: PieceType[], holes: readonly number[] = []): DealtGame {
  const state = JSON.parse(JSON.stringify(sim.state(dealt.slice(sim.taken), holes.slice(sim.holesRisen, sim.holesRisen + HOLES_AHEAD)))) as GameState;
  return restoreDealtGame({ mode, handling: DEFAULT_HANDLING, nextCount: NEXT }, state);
}

/** Ticks a dealt game to `until` with the inputs of those ticks, dealt up to 8 ahead (Dig: holes 2 ahead) as a spectator's feed deals. */
function tickTo(game: DealtGame, events: readonly ReplayEvent[], until: number, sequence: readonly PieceType[], holes: readonly number[]): void {
  for (let t = game.tickNo; t < until && !game.over; t++) {
    game.deal(game.dealt, sequence.slice(game.dealt, game.taken + 8));
    game.dealHoles(game.holesDealt, holes.slice(game.holesDealt, game.holesRisen + HOLES_AHEAD));
    game.tick(events.filter((e) => e.tick === t).map((e): InputEvent => ({ key: e.key, down: e.down })));
  }
}

/** Restored at `at`, then both run on to `end` in steps: equal play hashes at every step. */
function roundTrip(mode: Mode, seed: string, events: readonly ReplayEvent[], at: number, end: number): void {
  const { sim, dealt, topUp, holes } = server(mode, seed);
  const draw = pieceSequence(seed, RULES_VERSION);
  const ahead: PieceType[] = [];
  // Enough of the sequence for the spectator's deals (the server deals as the stream goes).
  const more = () => {
    while (ahead.length < Math.max(dealt.length, sim.taken) + 16) ahead.push(draw());
  };
  sim.feed(events.filter((e) => e.tick < at), at);
  topUp();
  const spectator = spectatorOf(mode, sim, dealt, holes);
  expect(spectator.tickNo).toBe(sim.tick);
  expect(spectator.playHash()).toBe(sim.playHash());
  for (let t = at; t < end && !sim.ended; ) {
    const to = Math.min(end, t + 37);
    sim.feed(events.filter((e) => e.tick >= t && e.tick < to), to);
    topUp();
    more();
    tickTo(spectator, events, sim.tick, ahead, holes);
    expect(spectator.tickNo).toBe(sim.tick);
    expect(spectator.playHash(), `tick ${sim.tick}`).toBe(sim.playHash());
    // A state taken here is the same game too (every field, whatever the moment holds).
    expect(spectatorOf(mode, sim, dealt, holes).playHash(), `restored at tick ${sim.tick}`).toBe(sim.playHash());
    t = to;
  }
  expect(spectator.over).toBe(sim.ended);
}

describe('a spectator game restored from a state', () => {
  it('plays on exactly as the server game, wherever the state is taken (random inputs)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MODE_NAMES), fc.string({ minLength: 1, maxLength: 12 }), eventsArb, fc.nat({ max: 2500 }), (mode, seed, events, at) => {
        roundTrip(mode, seed, events, at, 3000);
      }),
      { numRuns: 150 },
    );
  });

  it.each([['marathon', 'state-a'], ['sprint', 'state-b'], ['ultra', 'state-c'], ['dig18', 'state-d']] as const)('plays on exactly through clears, holds and spins (%s)', (mode, seed) => {
    const { replay } = playGame({ mode, seed, handling: DEFAULT_HANDLING, nextCount: NEXT, spins: true, maxPieces: 80 });
    const end = replay.events.at(-1)!.tick + 200;
    for (const at of [0, 97, Math.floor(end / 3), Math.floor(end / 2) + 11, end - 150]) roundTrip(mode, seed, replay.events, at, end);
  });

  it('plays on exactly in versus too: garbage queued, rising and sent (random inputs and garbage)', () => {
    const ops = fc.array(fc.record({ gap: fc.nat({ max: 8 }), key: fc.constantFrom(...KEYS), down: fc.boolean(), garbage: fc.option(fc.integer({ min: 1, max: 6 }), { freq: 6 }) }), { maxLength: 400 });
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), ops, fc.nat({ max: 1500 }), (seed, list, at) => {
        const config = { mode: 'battle' as const, handling: DEFAULT_HANDLING, nextCount: NEXT, rulesVersion: VERSUS_RULES_VERSION };
        const { core: c } = createCore({ ...config, seed }, false);
        const sequence = pieceSequence(seed, VERSUS_RULES_VERSION);
        const pieces: PieceType[] = [];
        const upcoming = () => {
          while (pieces.length < c.queue.taken + 16) pieces.push(sequence());
          return pieces;
        };
        let tick = 0;
        const plan = list.map((o) => ({ ...o, tick: (tick += o.gap) }));
        const play = (step: (t: number, garbage: number[], inputs: Array<[number, boolean]>) => void, from: number, to: number) => {
          for (let t = from; t < to; t++) {
            const now = plan.filter((o) => o.tick === t);
            step(t, now.flatMap((o) => (o.garbage === null ? [] : [o.garbage])), now.map((o) => [KEYS.indexOf(o.key), o.down]));
          }
        };
        // As Game.tick does: an ended game's clock stops. The columns it draws are what a host tells the dealt game.
        let columns: number[] = [];
        const server = (_t: number, garbage: number[], inputs: Array<[number, boolean]>) => {
          columns = [];
          if (c.ended) return;
          for (const g of garbage) columns.push(c.receive(g));
          for (const [k, d] of inputs) if (!c.ended) c.input(k, d);
          c.step();
        };
        play(server, 0, at);
        const state = JSON.parse(JSON.stringify(stateOfCore(c, upcoming().slice(c.queue.taken, c.queue.taken + NEXT + 1)))) as GameState;
        const game = restoreDealtGame(config, state);
        expect(game.playHash()).toBe(playHashCore(c));
        play((t, garbage, inputs) => {
          server(t, garbage, inputs);
          game.deal(game.dealt, upcoming().slice(game.dealt, game.taken + 8));
          garbage.forEach((g, i) => columns[i] !== undefined && game.receiveGarbage(g, columns[i]));
          game.tick(inputs.map(([k, d]) => ({ key: KEYS[k]!, down: d })));
          expect(game.playHash(), `tick ${t}`).toBe(playHashCore(c));
          if (t % 25 === 0) {
            const again = restoreDealtGame(config, JSON.parse(JSON.stringify(stateOfCore(c, upcoming().slice(c.queue.taken, c.queue.taken + NEXT + 1)))) as GameState);
            expect(again.playHash(), `restored at tick ${t}`).toBe(playHashCore(c));
          }
        }, at, at + 600);
      }),
      { numRuns: 60 },
    );
  });

  it('carries nothing of the seed: not the piece generator, not the hole generator', () => {
    const seed = 'a-secret-seed-0123456789';
    const { sim, dealt, topUp } = server('marathon', seed);
    const { replay } = playGame({ mode: 'marathon', seed, handling: DEFAULT_HANDLING, nextCount: NEXT, maxPieces: 20 });
    sim.feed(replay.events.filter((e) => e.tick < 900), 900);
    topUp();
    const text = JSON.stringify(sim.state(dealt.slice(sim.taken)));
    for (const secret of [seedState(seed), holeState(seed), seedState(seed) >>> 0, holeState(seed) >>> 0]) expect(text).not.toContain(String(secret));
    expect(text).not.toMatch(/rng/i); // (versus states carry the hole generator: vstart gives it to both players already)
    expect(JSON.parse(text)).toMatchObject({ taken: sim.taken, next: dealt.slice(sim.taken) });
    expect(text.length).toBeLessThan(1_500);
  });

  it('every field of the engine state is placed: carried, derived, or kept from the spectator', () => {
    const { core } = createCore({ mode: 'marathon', seed: 'x', handling: DEFAULT_HANDLING }, false);
    expect(Object.keys(core).filter((k) => !(k in STATE_FIELDS))).toEqual([]);
  });

  it('refuses a malformed state with a clear error', () => {
    const { sim, dealt } = server('sprint', 'malformed');
    const good = sim.state(dealt.slice(sim.taken));
    const config = { mode: 'sprint' as const, handling: DEFAULT_HANDLING, nextCount: NEXT };
    const bad: unknown[] = [
      { ...good, v: 2 },
      { ...good, cells: 'Q'.repeat(10) },
      { ...good, cells: '.'.repeat(401) },
      { ...good, next: ['I', 'Q'] },
      { ...good, holes: [10] },
      { ...good, holes: [1.5] },
      { ...good, holes: Array<number>(17).fill(1) },
      { ...good, core: { ...good.core, piece: 9 } },
      { ...good, core: { ...good.core, score: 1.5 } },
      { ...good, core: { ...good.core, b2b: 1 } },
      { ...good, taken: -1 },
      null,
    ];
    for (const state of bad) expect(() => restoreDealtGame(config, state as GameState)).toThrow(GameConfigError);
    // A state from before Dig (an older server in the cluster) has no holes, and restores.
    const older = { ...good };
    delete older.holes;
    expect(restoreDealtGame(config, older).playHash()).toBe(sim.playHash());
  });
});
