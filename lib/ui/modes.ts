import { isRanked, MODE_NAMES, MODES, VERSUS_MODE_NAMES, type AnyMode, type Mode, type RankBy, type RankedGame, type VersusMode } from '@/lib/engine';
import { formatPoints, formatTime } from '@/lib/ui/format';

/**
 * Modes that race a PB ghost: a race of fixed length (a line goal raced against the clock, or a
 * time limit), or a count raced at the same moment of the clock (Perfect Clears).
 */
export function racesAgainstBest(mode: Mode): boolean {
  return isRanked(mode) && (MODES[mode].rankBy !== 'score' || MODES[mode].timeLimitTicks > 0);
}

/** How a result reads, by what its mode ranks by (the engine's MODES[mode].rankBy). */
const RESULTS: Record<RankBy, { label: string; format: (game: RankedGame) => string }> = {
  time: { label: 'Time', format: (g) => formatTime(g.ticks) },
  score: { label: 'Score', format: (g) => formatPoints(g.score) },
  // The count, then the time that breaks a tie.
  clears: { label: 'Clears', format: (g) => `${g.clears ?? 0} clear${g.clears === 1 ? '' : 's'} in ${formatTime(g.ticks)}` },
};

type ModeText = {
  /** Short: tabs, table cells, chart captions. */
  label: string;
  /** The play page's heading and the mode picker's card. */
  title: string;
  blurb: string;
};

const TEXT = {
  sprint: { label: 'Sprint 40L', title: 'Sprint 40 lines', blurb: 'Clear 40 lines as fast as you can. Time is the score.' },
  marathon: { label: 'Marathon', title: 'Marathon', blurb: 'Level up every 10 lines, 150 lines to the finish. Survive and score.' },
  ultra: { label: 'Ultra 2:00', title: 'Ultra 2 minutes', blurb: 'Two minutes on the clock. Squeeze out every point.' },
  dig10: { label: 'Dig 10L', title: 'Dig 10 lines', blurb: 'Ten garbage rows, one hole each. Dig them all out as fast as you can.' },
  dig18: { label: 'Dig 18L', title: 'Dig 18 lines', blurb: 'Eighteen garbage rows; ten in sight, the rest rise as you dig. Time is the score.' },
  dig100: { label: 'Dig 100L', title: 'Dig 100 lines', blurb: 'A hundred garbage rows, ten at a time. Keep digging until the last one is gone.' },
  survival: { label: 'Survival', title: 'Survival', blurb: 'A garbage row rises every few seconds, sooner and sooner. Time survived is the score.' },
  battle: { label: 'Battle', title: 'Battle', blurb: 'Send garbage, cancel what comes in, be the last one standing.' },
  race30: { label: 'Race 30', title: 'Race 30 lines', blurb: 'First to clear 30 lines wins, with garbage on. Topping out loses.' },
  tsd20: { label: '20 TSD', title: '20 T-spin doubles', blurb: 'Twenty T-spin doubles against the clock. Any other line clear ends the run.' },
  pc: { label: 'Perfect Clears', title: 'Perfect clears', blurb: 'Clear the whole field again and again. A block above the fourth row ends it.' },
  zen: { label: 'Zen', title: 'Zen', blurb: 'No clock, no goal, no game over: the field clears itself before you top out. Never ranked.' },
} as const satisfies Record<AnyMode, ModeText>;

/**
 * Everything a page says about a mode, in the order the pages list them. The rules (and so how a
 * result ranks and reads) come from the engine; a new mode is one entry there and one in TEXT.
 */
export const MODE_INFO: Readonly<Record<Mode, ModeText & { result: (typeof RESULTS)[RankBy] }>> = Object.fromEntries(
  MODE_NAMES.map((mode) => [mode, { ...TEXT[mode], result: RESULTS[MODES[mode].rankBy] }]),
) as Record<Mode, ModeText & { result: (typeof RESULTS)[RankBy] }>;

/** Every solo mode in the order the pages show them (TEXT's order): the play pages, the home page, the manifest. */
export const PLAY_ORDER = (Object.keys(TEXT) as AnyMode[]).filter((m): m is Mode => MODES[m].kind === 'solo');

/**
 * The solo modes with boards, in the same order: leaderboards, personal bests, PB charts, replay
 * lists. A mode that is never ranked (Zen, MODES' `ranked: false`) is played but never listed here.
 */
export const MODE_ORDER = PLAY_ORDER.filter(isRanked);

/** What versus pages say about a versus mode (never a solo board or play page: MODE_INFO is solo only). */
export const VERSUS_MODE_INFO: Readonly<Record<VersusMode, ModeText>> = Object.fromEntries(VERSUS_MODE_NAMES.map((mode) => [mode, TEXT[mode]])) as Record<
  VersusMode,
  ModeText
>;

/** The number a board ranks by, as players read it. */
export function formatResult(mode: Mode, game: RankedGame): string {
  return MODE_INFO[mode].result.format(game);
}

export function isMode(value: string): value is Mode {
  return (MODE_NAMES as readonly string[]).includes(value);
}

export function isVersusModeName(value: string): value is VersusMode {
  return (VERSUS_MODE_NAMES as readonly string[]).includes(value);
}
