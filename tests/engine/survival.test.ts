import { describe, expect, it } from 'vitest';
import {
  createDealtGame, createGame, decodeReplay, encodeReplay, isRankable, metricOf, MODES, pieceSequence, rankValue, RULES_VERSION, simulateReplay,
  type GameEvent,
} from '@/lib/engine';
import { holeSequence } from '@/lib/engine/cheese';
import { collides } from '@/lib/engine/board';
import { createCore } from '@/lib/engine/setup';
import { boardRows } from '@/lib/engine/snapshot';
import { riseInterval, riseTick } from '@/lib/engine/survival';
import { playGame } from '@/tests/support/bot';
import { HANDLING, ofType, playDealtTwoRowsAhead } from '@/tests/engine/helpers';

const RISE = MODES.survival.cheese.rise;
/** A garbage row as the board text shows it: X everywhere but the hole. */
const row = (hole: number) => 'XXXXXXXXXX'.slice(0, hole) + '.' + 'XXXXXXXXXX'.slice(hole + 1);
const EMPTY = '..........';

/** A Survival core on a board of our own, the clock set to just before rise k (internal state, tests only). */
function beforeRise(board: string[], k: number, active?: { type: 'T' | 'I'; x: number; y: number }) {
  const { core } = createCore({ mode: 'survival', seed: 'rise', handling: HANDLING, board, queue: ['T', 'I'], ...(active ? { active: { ...active, rotation: '0' as const } } : {}) }, true);
  core.cheeseRisen = k;
  core.tickNo = riseTick(RISE, k) - 1;
  core.out = null;
  return core;
}

describe('Survival', () => {
  it('is data: rows rising on a clock, ranked by time survived (longer is better), a top out included', () => {
    expect(MODES.survival).toMatchObject({ kind: 'solo', lineGoal: 0, timeLimitTicks: 0, rankBy: 'time', better: 'higher', needsFinish: false, cheese: { field: 0, messiness: 30 } });
    expect(rankValue('survival', { ticks: 6000, score: 0 })).toBe(6000);
    // The board metric is lower-is-better for every mode: the longer game has the lower one.
    expect(metricOf('survival', { ticks: 6001, score: 0 })).toBeLessThan(metricOf('survival', { ticks: 6000, score: 99_999 }));
    expect(isRankable('survival', { finished: false })).toBe(true);
  });

  it('rises every 3 s, 0.1 s sooner every 5 rows, never sooner than every 0.8 s', () => {
    expect([0, 1, 4, 5, 9, 10].map((k) => riseTick(RISE, k))).toEqual([180, 360, 900, 1074, 1770, 1938]);
    expect([riseInterval(RISE, 0), riseInterval(RISE, 5), riseInterval(RISE, 109), riseInterval(RISE, 110), riseInterval(RISE, 4000)]).toEqual([180, 174, 54, 48, 48]);
    // Rise 109, the last of the 22 shortening stages, at 3:34.5: every 0.8 s from then on.
    expect(riseTick(RISE, 109)).toBe(12_870);
    for (let k = 1; k < 5000; k++) expect(riseTick(RISE, k) - riseTick(RISE, k - 1)).toBe(riseInterval(RISE, k));
    // `rows` bounds the hole columns a host may deal; no hour-long game comes near it.
    expect(riseTick(RISE, MODES.survival.cheese.rows - 1)).toBeGreaterThan(216_000);
  });

  it('raises a row from the floor at the end of the tick its clock reaches, the hole the seed’s next', () => {
    const game = createGame({ mode: 'survival', seed: 'clock', handling: HANDLING });
    const next = holeSequence('clock', 'survival');
    const events: GameEvent[] = [];
    for (let t = 0; t < 179; t++) events.push(...game.tick());
    expect(ofType(events, 'garbageRise')).toEqual([]);
    expect(game.snapshot().board.slice(19)).toEqual([EMPTY]);
    const rise = game.tick();
    expect(ofType(rise, 'garbageRise')).toEqual([{ type: 'garbageRise', rows: 1, queued: 0 }]);
    expect(game.snapshot().tick).toBe(180);
    const first = next();
    expect(game.snapshot().board.slice(18)).toEqual([EMPTY, row(first)]);
    for (let t = 180; t < 360; t++) game.tick();
    expect(game.snapshot().board.slice(17)).toEqual([EMPTY, row(first), row(next())]);
  });

  it('lifts a piece the new row would overlap, with its lowest row (no lock reset is won)', () => {
    const core = beforeRise([row(2), row(2)], 7, { type: 'T', x: 4, y: 2 });
    const lowest = core.lowestY;
    core.step();
    expect(ofType(core.out ?? [], 'garbageRise')).toHaveLength(1);
    expect([core.y, core.lowestY, core.ended]).toEqual([3, lowest + 1, false]);
    expect(collides(core.board, core.slot, core.x, core.y - 1)).toBe(true);
    expect(boardRows(core, 4)).toEqual([EMPTY, row(2), row(2), row(holeSequence('rise', 'survival')())]);
    // A piece in the air stays where it is.
    const high = beforeRise([row(2)], 7, { type: 'T', x: 4, y: 10 });
    high.step();
    expect(high.y).toBe(10);
  });

  it('ends when a rise would push the stack past the top of the field (garbageOut), a result it still ranks', () => {
    const core = beforeRise(['X.........', ...Array<string>(38).fill(EMPTY), row(0)], 3);
    core.step();
    expect(ofType(core.out ?? [], 'gameOver')).toEqual([{ type: 'gameOver', reason: 'garbageOut' }]);
    expect([core.ended, core.toppedOut]).toEqual([true, true]);
  });

  it('a game left alone tops out under its own rows, at the same tick in play and in the fast replay path', () => {
    const game = createGame({ mode: 'survival', seed: 'idle', handling: HANDLING });
    let guard = 0;
    while (!game.snapshot().over && guard++ < 20_000) game.tick();
    const result = simulateReplay(game.replay());
    expect(result).toMatchObject({ toppedOut: true, finished: false, ticks: game.snapshot().tick });
    expect(result.hash).toBe(game.hash());
  });

  it('played by the bot: it survives rows, tops out, and the codec and both replay paths agree', () => {
    const { replay, result } = playGame({ mode: 'survival', seed: 'bot-survival', maxPieces: 80, pace: 30 });
    const full = simulateReplay(replay);
    expect(full).toMatchObject({ ended: true, toppedOut: true });
    expect(full.lines).toBeGreaterThan(0);
    expect(full.ticks).toBeGreaterThanOrEqual(result.ticks);
    const back = decodeReplay(encodeReplay(replay));
    expect(back.mode).toBe('survival');
    expect(simulateReplay(back)).toEqual(full);
    expect(simulateReplay(replay, { evented: true }).hash).toBe(full.hash);
    // Another seed's holes under the same inputs is another game.
    expect(simulateReplay({ ...replay, seed: 'bot-survival-2' }).hash).not.toBe(full.hash);
  });
});

describe('Survival, dealt (a ranked live game: the browser has no seed)', () => {
  const seed = 'dealt-survival';
  const config = { mode: 'survival' as const, handling: HANDLING, nextCount: 5 };
  const holes = Array.from({ length: 200 }, holeSequence(seed, 'survival'));
  const pieces = Array.from({ length: 400 }, pieceSequence(seed, RULES_VERSION));

  it('runs no tick without a hole column in hand: a row due on the clock waits like a piece not dealt', () => {
    const game = createDealtGame(config, pieces.slice(0, 7));
    expect(game.ready).toBe(false);
    game.dealHoles(0, holes.slice(0, 1));
    for (let i = 0; i < 500; i++) game.tick();
    // The first row rose at 180 with the one column dealt; the clock then stops until the next is dealt.
    expect([game.tickNo, game.holesRisen, game.ready]).toEqual([180, 1, false]);
    game.dealHoles(1, holes.slice(1, 3));
    game.tick();
    expect(game.tickNo).toBe(181);
  });

  it('dealt two rows ahead, plays the seeded game’s replay to the same end, and reveals only the seed that dealt it', () => {
    const { replay } = playGame({ mode: 'survival', seed, nextCount: 5, maxPieces: 60, pace: 30 });
    const game = createDealtGame({ ...config, holes: holes.slice(0, 2) }, pieces.slice(0, 7));
    playDealtTwoRowsAhead(game, replay, pieces, holes, (ahead) => expect(ahead).toBeLessThanOrEqual(2));
    const result = simulateReplay(replay);
    expect(game.snapshot()).toMatchObject({ over: true, tick: result.ticks });
    expect(game.holesRisen).toBeGreaterThan(5);
    const wrong = game.clone();
    expect(() => wrong.reveal('another-seed')).toThrow(/not the sequence|not those of this seed/);
    game.reveal(seed);
    expect(game.hash()).toBe(result.hash);
  });

  it('refuses a reveal when a hole column dealt is not the seed’s', () => {
    const bad = holes.slice(0, 2);
    bad[1] = (bad[1]! + 1) % 10;
    const game = createDealtGame({ ...config, holes: bad }, pieces.slice(0, 7));
    expect(() => game.reveal(seed)).toThrow(/hole columns are not those of this seed/);
  });
});
