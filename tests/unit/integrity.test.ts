import { describe, expect, it } from 'vitest';
import { packEvents, type ReplayEvent } from '@/lib/engine';
import { featureRow, type FeatureRow } from '@/lib/server/integrity/features';
import { judgeProfile, outOfRange, type ProfileGame } from '@/lib/server/integrity/judge';
import { HUMAN_RANGE, PROFILE } from '@/lib/server/integrity/rules';
import { timingFeatures } from '@/lib/server/games/timing-features';

const tap = (tick: number, hold = 2): ReplayEvent[] => [{ tick, key: 'hardDrop', down: true }, { tick: tick + hold, key: 'hardDrop', down: false }];
const features = (events: ReplayEvent[], lockTicks: number[], gameTicks: number) =>
  timingFeatures({ inputs: packEvents(events), lockTicks, gameTicks, ppsWindow: 100, pressWindowTicks: 600 });

/** A plainly human game: nothing near any limit. */
const HUMAN: FeatureRow = {
  pieces: 100, presses: 300, ticks: 3000, pps: 2, pressesPerSecond: 6, reactionTicks: 12, reactionShare: 0.15, taps: 290, tapShare: 0.3, rhythmRun: 3, peakPps: null,
};
const game = (row: Partial<FeatureRow>, i = 0): ProfileGame => ({ ref: { kind: 'solo', gameId: `g${i}` }, row: { ...HUMAN, ...row } });
const games = (n: number, row: Partial<FeatureRow>, from = 0) => Array.from({ length: n }, (_, i) => game(row, from + i));

describe('reaction to a new piece', () => {
  it('is the ticks from each lock to the next press: median and the share of the commonest', () => {
    // Locks at 10, 30, 50, 70; the next presses come 3, 3, 8 ticks later; the last lock has none.
    const events = [...tap(0), ...tap(10), ...tap(13), ...tap(33), ...tap(58)];
    const f = features(events, [10, 30, 50, 70], 80);
    expect(f.reaction).toEqual({ samples: 3, medianTicks: 3, modalShare: 2 / 3 });
  });

  it('presses on the tick of the lock belong to the piece that locked (its hard drop), not the reaction', () => {
    const events: ReplayEvent[] = [
      { tick: 5, key: 'left', down: true }, { tick: 5, key: 'hardDrop', down: true }, { tick: 6, key: 'hardDrop', down: false },
      { tick: 7, key: 'left', down: false }, { tick: 9, key: 'right', down: true }, { tick: 11, key: 'right', down: false },
    ];
    expect(features(events, [5], 12).reaction).toEqual({ samples: 1, medianTicks: 4, modalShare: 1 });
  });

  it('no pieces or no press after them: no reaction', () => {
    expect(features(tap(0), [], 10).reaction).toEqual({ samples: 0, medianTicks: null, modalShare: 0 });
    expect(features(tap(0), [0], 10).reaction.medianTicks).toBeNull();
  });
});

describe('a game’s feature row', () => {
  it('has pieces and presses per second over the whole game, the tap spread and the reaction', () => {
    const events = Array.from({ length: 60 }, (_, i) => tap(i * 10, 1 + (i % 3))).flat();
    const row = featureRow(features(events, [9, 19, 29, 39, 49, 59], 600), 600);
    expect(row).toMatchObject({ pieces: 6, presses: 60, ticks: 600, pps: 0.6, pressesPerSecond: 6, reactionTicks: 1, reactionShare: 1, taps: 60 });
    expect(row.tapShare).toBeCloseTo(1 / 3, 3);
  });
});

describe('the human range of one game', () => {
  it('plainly human play is inside it, in both kinds of mode', () => {
    expect(outOfRange(HUMAN, 'solo')).toEqual([]);
    expect(outOfRange(HUMAN, 'versus')).toEqual([]);
  });

  it.each([
    ['steady_taps', { tapShare: HUMAN_RANGE.steadyTapShare }, { tapShare: HUMAN_RANGE.steadyTapShare - 0.01 }],
    ['steady_reaction', { reactionShare: HUMAN_RANGE.steadyReactionShare }, { reactionShare: HUMAN_RANGE.steadyReactionShare - 0.01 }],
    ['sustained_presses', { pressesPerSecond: HUMAN_RANGE.maxPressesPerSecond + 0.1 }, { pressesPerSecond: HUMAN_RANGE.maxPressesPerSecond }],
    ['sustained_pps', { pps: HUMAN_RANGE.maxPps.solo + 0.1 }, { pps: HUMAN_RANGE.maxPps.solo }],
  ] as const)('%s: at the limit is out, just inside is not', (reason, out, inside) => {
    expect(outOfRange({ ...HUMAN, ...out }, 'solo')).toEqual([reason]);
    expect(outOfRange({ ...HUMAN, ...inside }, 'solo')).toEqual([]);
  });

  it('versus is judged against its own pieces per second', () => {
    const row = { ...HUMAN, pps: HUMAN_RANGE.maxPps.versus + 0.5 };
    expect(outOfRange(row, 'versus')).toEqual(['sustained_pps']);
    expect(outOfRange(row, 'solo')).toEqual([]);
  });

  it('needs a sample: a short game is never out of range', () => {
    const short = { ...HUMAN, pieces: HUMAN_RANGE.minReactions, taps: HUMAN_RANGE.minTaps - 1, ticks: HUMAN_RANGE.minTicks - 1 };
    expect(outOfRange({ ...short, tapShare: 1, reactionShare: 1, pressesPerSecond: 40 }, 'solo')).toEqual([]);
    expect(outOfRange({ ...HUMAN, pieces: HUMAN_RANGE.minPieces - 1, pps: 20 }, 'solo')).toEqual([]);
  });
});

describe('the judge over a player’s games', () => {
  it(`flags a reason found in ${PROFILE.minGamesOut} of the recent games, not in one fewer`, () => {
    const few = [...games(PROFILE.minGamesOut - 1, { tapShare: 1 }), ...games(10, {}, 10)];
    expect(judgeProfile(few, 'solo')).toEqual([]);
    const flags = judgeProfile([...games(PROFILE.minGamesOut, { tapShare: 1 }), ...games(10, {}, 10)], 'solo');
    expect(flags.map((f) => f.reason)).toEqual(['steady_taps']);
    expect(flags[0]!.message).toBe(`3 of the last 13 games showed taps held the same number of ticks (80% or more of them).`);
    expect(flags[0]!.evidence.out).toEqual([0, 1, 2].map((i) => ({ kind: 'solo', gameId: `g${i}` })));
  });

  it(`reads only the newest ${PROFILE.window} games`, () => {
    expect(judgeProfile([...games(PROFILE.window, {}), ...games(5, { tapShare: 1 }, 100)], 'solo')).toEqual([]);
  });

  it('flags a jump far from the player’s own history, with enough games on both sides', () => {
    const history = [...games(PROFILE.recent, { pps: 3.2 }), ...games(PROFILE.minEarlier, { pps: 2 }, 50)];
    const [flag] = judgeProfile(history, 'solo');
    expect(flag?.reason).toBe('pps_jump');
    expect(flag?.evidence.recent.pps).toBe(3.2);
    expect(flag?.evidence.earlier?.pps).toBe(2);
    // One earlier game fewer: no history to jump from.
    expect(judgeProfile(history.slice(0, -1), 'solo')).toEqual([]);
    // Half as fast again, but a beginner's gain under a piece a second: no jump.
    expect(judgeProfile([...games(PROFILE.recent, { pps: 1.2 }), ...games(PROFILE.minEarlier, { pps: 0.6 }, 50)], 'solo')).toEqual([]);
    // A steady improvement is not a jump.
    expect(judgeProfile([...games(PROFILE.recent, { pps: 2.8 }), ...games(PROFILE.minEarlier, { pps: 2 }, 50)], 'solo')).toEqual([]);
  });

  it('gives each flag the medians of the recent and earlier games as evidence', () => {
    const [flag] = judgeProfile([...games(10, { reactionShare: 0.9, reactionTicks: 2 }), ...games(10, {}, 10)], 'versus');
    expect(flag?.evidence).toMatchObject({
      games: 20,
      recent: { games: 10, reactionTicks: 2, reactionShare: 0.9, pps: 2 },
      earlier: { games: 10, reactionTicks: 12, reactionShare: 0.15 },
    });
  });
});
