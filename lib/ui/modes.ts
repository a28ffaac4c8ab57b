import { MODE_NAMES, MODES, rankValue, type Mode, type RankBy } from '@/lib/engine';
import { formatPoints, formatTime } from '@/lib/ui/format';

/** Modes that are a race of fixed length (a line goal raced against the clock, or a time limit): they can race a PB ghost. */
export function racesAgainstBest(mode: Mode): boolean {
  return MODES[mode].rankBy === 'time' || MODES[mode].timeLimitTicks > 0;
}

/** How a result reads, by what its mode ranks by (the engine's MODES[mode].rankBy). */
const RESULTS: Record<RankBy, { label: string; format: (value: number) => string }> = {
  time: { label: 'Time', format: formatTime },
  score: { label: 'Score', format: formatPoints },
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
} as const satisfies Record<Mode, ModeText>;

/**
 * Everything a page says about a mode, in the order the pages list them. The rules (and so how a
 * result ranks and reads) come from the engine; a new mode is one entry there and one in TEXT.
 */
export const MODE_INFO: Readonly<Record<Mode, ModeText & { result: (typeof RESULTS)[RankBy] }>> = Object.fromEntries(
  MODE_NAMES.map((mode) => [mode, { ...TEXT[mode], result: RESULTS[MODES[mode].rankBy] }]),
) as Record<Mode, ModeText & { result: (typeof RESULTS)[RankBy] }>;

/** Modes in the order the pages show them: TEXT's order. */
export const MODE_ORDER = Object.keys(TEXT) as Mode[];

/** The number a board ranks by, as players read it. */
export function formatResult(mode: Mode, game: { ticks: number; score: number }): string {
  return MODE_INFO[mode].result.format(rankValue(mode, game));
}

export function isMode(value: string): value is Mode {
  return (MODE_NAMES as readonly string[]).includes(value);
}
