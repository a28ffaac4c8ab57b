import { dayStart, shiftDay, utcDay } from '@/lib/periods/days';
import { isoWeek, shiftWeek, weekStart } from '@/lib/periods/weeks';

/**
 * A leaderboard period: how a moment maps to its bucket (the board it counts on), and how its
 * boards are labelled and navigated. Buckets are stored as PersonalBest.period, so the buckets
 * of different periods must never look alike (each `startOf` accepts only its own).
 */
type PeriodRules = {
  /** The period tab: the current board. */
  tab: string;
  /** Names one bucket in navigation ("Week", "Day"); null when there is only one board. */
  unit: string | null;
  bucketOf(at: Date): string;
  /** When a bucket starts, or null for text that is not one of this period's buckets. */
  startOf(bucket: string): Date | null;
  shift(bucket: string, by: number): string | null;
  /** How far back the picker reaches (older buckets stay reachable by the ← links and the URL). */
  pickerLength: number;
  /** What a bucket looks like, for error messages. */
  example: string;
};

export const ALL_TIME = 'all';

/** Every board period, in the order the boards show them; a new one is one entry (+ a migration to backfill its bests). */
export const PERIODS = {
  all: {
    tab: 'All time',
    unit: null,
    bucketOf: () => ALL_TIME,
    startOf: (bucket) => (bucket === ALL_TIME ? new Date(0) : null),
    shift: () => null,
    pickerLength: 1,
    example: ALL_TIME,
  },
  week: { tab: 'This week', unit: 'Week', bucketOf: isoWeek, startOf: weekStart, shift: shiftWeek, pickerLength: 26, example: '2026-W47' },
  day: { tab: 'Today', unit: 'Day', bucketOf: utcDay, startOf: dayStart, shift: shiftDay, pickerLength: 30, example: '2026-11-22' },
} as const satisfies Record<string, PeriodRules>;

export type PeriodId = keyof typeof PERIODS;
export const PERIOD_IDS = Object.keys(PERIODS) as [PeriodId, ...PeriodId[]];

export function isBucket(period: PeriodId, text: string): boolean {
  return (PERIODS[period] as PeriodRules).startOf(text) !== null;
}

/** The bucket of every period that a moment falls in: where a game played then counts. */
export function bucketsAt(at: Date): Record<PeriodId, string> {
  return Object.fromEntries(PERIOD_IDS.map((p) => [p, PERIODS[p].bucketOf(at)])) as Record<PeriodId, string>;
}

/** When the current board of a period starts over, or null for one that never does. */
export function nextReset(period: PeriodId, now: Date): Date | null {
  const rules: PeriodRules = PERIODS[period];
  const next = rules.shift(rules.bucketOf(now), 1);
  return next === null ? null : rules.startOf(next);
}

/** The current bucket and the `count - 1` before it, newest first (the picker). */
export function recentBuckets(period: PeriodId, now: Date, count: number = PERIODS[period].pickerLength): string[] {
  const rules: PeriodRules = PERIODS[period];
  const current = rules.bucketOf(now);
  const out = [current];
  for (let i = 1; i < count; i++) {
    const earlier = rules.shift(current, -i);
    if (earlier === null) break;
    out.push(earlier);
  }
  return out;
}

/** Null, or the bucket before/after, for the ← → links. */
export function shiftBucket(period: PeriodId, bucket: string, by: number): string | null {
  return (PERIODS[period] as PeriodRules).shift(bucket, by);
}
