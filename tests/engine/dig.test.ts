import { describe, expect, it } from 'vitest';
import {
  createDealtGame, createGame, decodeReplay, pieceSequence, encodeReplay, isRankable, metricOf, MODES, rankValue, RULES_VERSION, simulateReplay,
  type GameEvent, type Mode,
} from '@/lib/engine';
import { holeSequence, nextHole } from '@/lib/engine/cheese';
import { createCore } from '@/lib/engine/setup';
import { boardRows } from '@/lib/engine/snapshot';
import { playGame } from '@/tests/support/bot';
import { dropIRightWell, HANDLING, ofType, playDealtTwoRowsAhead } from '@/tests/engine/helpers';

const DIGS = ['dig10', 'dig18', 'dig100'] as const;

/** A garbage row as the board text shows it: X everywhere but the hole. */
const row = (hole: number) => 'XXXXXXXXXX'.slice(0, hole) + '.' + 'XXXXXXXXXX'.slice(hole + 1);

/**
 * A Dig game on a board of our own: `rows` bottom-aligned, the bottom `cheese.inField` of them the
 * mode's garbage, with the counters preset (internal state, tests only). An I then goes into the
 * right-hand column and is hard dropped.
 */
function dropIRight(mode: Mode, board: string[], cheese: { inField: number; risen: number; cleared: number }): { events: GameEvent[]; core: ReturnType<typeof createCore>['core'] } {
  const { core } = createCore({ mode, seed: 'dig', handling: HANDLING, board, queue: ['I'] }, true);
  core.cheeseIn = cheese.inField;
  core.cheeseRisen = cheese.risen;
  core.cheeseCleared = cheese.cleared;
  return { events: dropIRightWell(core), core };
}

describe('Dig', () => {
  it('is data: 10, 18 and 100 rows, ten in the field at once, ranked by time, lower better, only when finished', () => {
    expect(DIGS.map((m) => MODES[m].cheese.rows)).toEqual([10, 18, 100]);
    for (const m of DIGS) expect(MODES[m]).toMatchObject({ kind: 'solo', lineGoal: 0, timeLimitTicks: 0, rankBy: 'time', better: 'lower', needsFinish: true, cheese: { field: 10, messiness: 100 } });
    expect(rankValue('dig10', { ticks: 900, score: 5 })).toBe(900);
    expect(metricOf('dig10', { ticks: 900, score: 5 })).toBeLessThan(metricOf('dig10', { ticks: 901, score: 5000 }));
    expect(isRankable('dig18', { finished: false })).toBe(false);
    expect(isRankable('dig18', { finished: true })).toBe(true);
  });

  it('starts with ten garbage rows, one hole each, the seed’s hole sequence from the top row down', () => {
    for (const mode of DIGS) {
      const next = holeSequence('start', mode);
      const holes = Array.from({ length: 10 }, next);
      const board = createGame({ mode, seed: 'start', handling: HANDLING }).snapshot().board;
      expect(board.slice(0, 10), mode).toEqual(Array(10).fill('..........'));
      expect(board.slice(10), mode).toEqual(holes.map(row));
      // Messiness 100: no hole is right under the one above it.
      for (let i = 1; i < holes.length; i++) expect(holes[i], `${mode} row ${i}`).not.toBe(holes[i - 1]);
    }
  });

  it('draws holes by the stated rule: the first draw % 10, then another column with probability messiness %', () => {
    expect(nextHole(-1, 1234567, 100)).toBe(7);
    expect(nextHole(3, 1234567, 100)).toBe((3 + 1 + (Math.floor(1234567 / 100) % 9)) % 10);
    expect(nextHole(3, 1234599, 99)).toBe(3); // draw % 100 = 99 ≥ 99: the same column again
    expect(nextHole(3, 1234598, 99)).not.toBe(3);
    expect(nextHole(5, 0xffffffff, 0)).toBe(5);
    // Every column but the previous one is reachable, none twice as likely as another (±1 in 9 of each 900 draws).
    const counts = new Array<number>(10).fill(0);
    for (let d = 0; d < 90_000; d++) counts[nextHole(4, d, 100)]!++;
    expect(counts[4]).toBe(0);
    for (const [col, n] of counts.entries()) if (col !== 4) expect(n).toBe(10_000);
  });

  it('is played under keyed rules only: there is no other generator for the holes', () => {
    expect(() => createGame({ mode: 'dig10', seed: 'x', handling: HANDLING, rulesVersion: 3 })).toThrow(/does not play dig10/);
    const { replay } = playGame({ mode: 'dig10', seed: 'old', maxPieces: 3 });
    expect(() => simulateReplay({ ...replay, rulesVersion: 3 })).toThrow(/does not play dig10/);
    expect(() => encodeReplay({ ...replay, rulesVersion: 1 })).toThrow();
  });

  it('clearing a garbage row raises the next one from the floor, under the rest (dig18)', () => {
    const board = [row(9), row(0)];
    const { events, core } = dropIRight('dig18', board, { inField: 2, risen: 2, cleared: 0 });
    const hole = holeSequence('dig', 'dig18')(); // the board was given: the stream's first draw is the next row
    expect(ofType(events, 'lock')[0]).toMatchObject({ linesCleared: 1, clearedRows: [1] });
    expect(ofType(events, 'garbageRise')).toEqual([{ type: 'garbageRise', rows: 1, queued: 0 }]);
    expect(boardRows(core, 5)).toEqual(['.........I', '.........I', '.........I', row(0), row(hole)]);
    expect([core.cheeseIn, core.cheeseRisen, core.cheeseCleared, core.ended]).toEqual([2, 3, 1, false]);
  });

  it('raises nothing once every row has risen, and finishes on the lock that clears the last one', () => {
    const tail = dropIRight('dig18', [row(9), row(0)], { inField: 2, risen: 18, cleared: 16 });
    expect(ofType(tail.events, 'garbageRise')).toEqual([]);
    expect(boardRows(tail.core, 4)).toEqual(['.........I', '.........I', '.........I', row(0)]);
    expect([tail.core.cheeseIn, tail.core.cheeseCleared, tail.core.ended]).toEqual([1, 17, false]);

    const last = dropIRight('dig10', [row(9)], { inField: 1, risen: 10, cleared: 9 });
    expect(ofType(last.events, 'finished')).toEqual([{ type: 'finished', reason: 'goal' }]);
    expect(ofType(last.events, 'spawn')).toEqual([]);
    expect(last.core.cheeseCleared).toBe(10);
  });

  it('a clear above the garbage is no garbage row and raises nothing', () => {
    // Row 1 is the player's own (the I fills it); row 0 is the only garbage row.
    const { events, core } = dropIRight('dig10', ['XXXXXXXXX.', row(0)], { inField: 1, risen: 10, cleared: 9 });
    expect(ofType(events, 'lock')[0]).toMatchObject({ linesCleared: 1, clearedRows: [1] });
    expect(ofType(events, 'finished')).toEqual([]);
    expect([core.cheeseIn, core.cheeseCleared]).toEqual([1, 9]);
  });

  it('a row that would push the stack past the top of the field tops the game out', () => {
    // Not reachable in play (a rise follows a clear, which lowered the stack first): the guard holds anyway.
    const board = ['X.........', ...Array<string>(38).fill('..........'), row(0)];
    const { events, core } = dropIRight('dig18', board, { inField: 1, risen: 5, cleared: 4 });
    expect(ofType(events, 'gameOver')).toEqual([{ type: 'gameOver', reason: 'garbageOut' }]);
    expect(core.toppedOut).toBe(true);
  });

  it.each(DIGS)('%s played by the bot digs every row out: goal, a time, and the codec round trip', (mode) => {
    const { replay, result } = playGame({ mode, seed: `bot-${mode}` });
    expect(result).toMatchObject({ finished: true, toppedOut: false, reason: 'goal' });
    expect(result.lines).toBeGreaterThanOrEqual(MODES[mode].cheese.rows);
    expect(replay.rulesVersion).toBe(RULES_VERSION);
    const back = decodeReplay(encodeReplay(replay));
    expect(back.mode).toBe(mode);
    expect(simulateReplay(back)).toEqual(result);
    expect(simulateReplay(replay, { evented: true }).hash).toBe(result.hash);
  });

  it('the holes are part of the game: another seed’s holes under the same inputs is another game', () => {
    const { replay, result } = playGame({ mode: 'dig10', seed: 'holes-a', maxPieces: 12 });
    expect(simulateReplay({ ...replay, seed: 'holes-b' }).hash).not.toBe(result.hash);
  });
});

describe('Dig, dealt (a ranked live game: the browser has no seed)', () => {
  const seed = 'dealt-dig';
  const config = { mode: 'dig18' as const, handling: HANDLING, nextCount: 5 };
  const holes = (() => {
    const next = holeSequence(seed, 'dig18');
    return Array.from({ length: 18 }, next);
  })();
  const pieces = (() => {
    const next = pieceSequence(seed, RULES_VERSION);
    return Array.from({ length: 200 }, next);
  })();

  it('starts from the hole columns it is given, and refuses a start without the field’s rows', () => {
    const game = createDealtGame({ ...config, holes: holes.slice(0, 12) }, pieces.slice(0, 7));
    expect(game.snapshot().board.slice(10)).toEqual(holes.slice(0, 10).map(row));
    expect([game.holesRisen, game.holesDealt]).toEqual([10, 12]);
    expect(() => createDealtGame({ ...config, holes: holes.slice(0, 9) }, pieces.slice(0, 7))).toThrow(/first 10 rows/);
    expect(() => createDealtGame({ ...config, holes: [...holes.slice(0, 9), 10] }, pieces.slice(0, 7))).toThrow(/hole column is an integer/);
    expect(() => createDealtGame({ mode: 'sprint', handling: HANDLING, holes: [1] }, pieces.slice(0, 7))).toThrow(/no garbage rows/);
  });

  it('refuses hole deals that are malformed, out of order, past the mode’s rows or too far ahead', () => {
    const game = createDealtGame({ ...config, holes: holes.slice(0, 10) }, pieces.slice(0, 7));
    expect(() => game.dealHoles(11, [1])).toThrow(/starts at row 11/);
    expect(() => game.dealHoles(10, [1.5])).toThrow(/integer/);
    expect(() => game.dealHoles(10, [-1])).toThrow(/integer/);
    expect(() => game.dealHoles(10, Array<number>(9).fill(1))).toThrow(/more hole columns than the 18 rows/);
    game.dealHoles(10, holes.slice(10, 12));
    game.dealHoles(10, holes.slice(10, 12)); // a repeat is ignored
    expect(game.holesDealt).toBe(12);
  });

  it('waits for a hole column while a row may still rise, and reveals only the seed that dealt them', () => {
    const { replay } = playGame({ mode: 'dig18', seed, nextCount: 5 });
    const game = createDealtGame({ ...config, holes: holes.slice(0, 10) }, pieces.slice(0, 7));
    expect(game.ready).toBe(false); // nothing past the field yet: a lock could need a row
    game.dealHoles(10, holes.slice(10, 12));
    expect(game.ready).toBe(true);
    playDealtTwoRowsAhead(game, replay, pieces, holes, (ahead) => expect(ahead).toBeLessThanOrEqual(2));
    expect(game.snapshot()).toMatchObject({ finished: true, reason: 'goal' });
    const wrong = game.clone();
    expect(() => wrong.reveal('another-seed')).toThrow(/not the sequence|not those of this seed/);
    game.reveal(seed);
    expect(game.hash()).toBe(simulateReplay(replay).hash);
  });

  it('refuses a reveal when a hole column dealt is not the seed’s, even with the right pieces', () => {
    const bad = holes.slice(0, 12);
    bad[11] = (bad[11]! + 1) % 10;
    const game = createDealtGame({ ...config, holes: bad }, pieces.slice(0, 7));
    expect(() => game.reveal(seed)).toThrow(/hole columns are not those of this seed/);
  });
});

describe('Dig, dealt: two locks in one tick', () => {
  it('holds a second hard drop back to the next tick while no hole column is left for the row it may raise', () => {
    const holes = Array.from({ length: 18 }, holeSequence('twice', 'dig18'));
    const game = createDealtGame({ mode: 'dig18', handling: HANDLING, nextCount: 1, holes: holes.slice(0, 11) }, ['I', 'I', 'I', 'I']);
    // Internal state (tests only): one garbage row left in the field, so every lock raises one.
    const core = (game as unknown as { core: ReturnType<typeof createCore>['core'] }).core;
    for (let y = 0; y < 40; y++) core.board[y + 4] = ~(0x3ff << 4);
    core.colors.fill(0);
    core.board[4] = -1 & ~(1 << (9 + 4));
    core.cheeseIn = 1;
    core.cheeseCleared = 9;
    game.deal(4, ['I', 'I', 'I', 'I']);
    const press = (key: 'hardDrop' | 'rotateCW' | 'right', down = true) => ({ key, down });
    game.tick([press('rotateCW'), press('rotateCW', false), ...[1, 2, 3, 4].flatMap(() => [press('right'), press('right', false)])]);
    expect(game.holesDealt - game.holesRisen).toBe(1);
    // Two hard drops in one tick: the first clears the garbage row and raises the last column dealt.
    expect(() => game.tick([press('hardDrop'), press('hardDrop', false), press('hardDrop')])).not.toThrow();
    expect(game.holesDealt - game.holesRisen).toBe(0);
    expect(game.ready).toBe(false);
    expect(game.carried).toEqual([press('hardDrop')]);
    game.dealHoles(11, holes.slice(11, 13));
    expect(() => game.tick()).not.toThrow();
    expect(game.holesRisen).toBe(12);
  });
});
