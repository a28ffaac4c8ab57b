import { describe, expect, it } from 'vitest';
import { ALL_TIME, bucketsAt, isBucket, nextReset, PERIOD_IDS, PERIODS, recentBuckets, shiftBucket } from '@/lib/periods';
import { dayStart, shiftDay, utcDay } from '@/lib/periods/days';
import { isoWeek, isValidIsoWeek, shiftWeek, weekStart } from '@/lib/periods/weeks';
import { formatCountdown } from '@/lib/ui/format';

describe('UTC ISO weeks', () => {
  it.each([
    ['2026-11-22T23:59:59.999Z', '2026-W47'], // Sunday: last moment of the week
    ['2026-11-23T00:00:00.000Z', '2026-W48'], // Monday: first moment of the next
    ['2026-01-01T00:00:00Z', '2026-W01'], // Thursday 1 January is in week 1
    ['2027-01-01T12:00:00Z', '2026-W53'], // Friday 1 January belongs to the previous year's last week
    ['2024-12-30T00:00:00Z', '2025-W01'], // Monday 30 December opens next year's week 1
    ['2021-01-03T23:59:59Z', '2020-W53'],
  ])('%s is in %s', (at, week) => {
    expect(isoWeek(new Date(at))).toBe(week);
  });

  it('ignores the local time zone', () => {
    // The same instant gives the same week whatever TZ the server runs in: only UTC fields are used.
    expect(isoWeek(new Date(Date.UTC(2026, 10, 23, 0, 0, 0)))).toBe('2026-W48');
  });

  it('validates and navigates weeks', () => {
    expect(weekStart('2026-W48')?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(isValidIsoWeek('2026-W53')).toBe(true);
    expect(isValidIsoWeek('2025-W53')).toBe(false);
    expect(isValidIsoWeek('2026-W00')).toBe(false);
    expect(isValidIsoWeek('2026-48')).toBe(false);
    expect(shiftWeek('2026-W01', -1)).toBe('2025-W52');
  });

  it('counts down to the next Monday 00:00 UTC and lists past weeks newest first', () => {
    expect(nextReset('week', new Date('2026-11-22T23:59:59Z'))?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextReset('week', new Date('2026-11-23T00:00:00Z'))?.toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(nextReset('week', new Date('2026-12-31T10:00:00Z'))?.toISOString()).toBe('2027-01-04T00:00:00.000Z');
    expect(formatCountdown(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999)).toBe('2d 03:04:05');
    expect(formatCountdown(59_000)).toBe('00:00:59');
    expect(formatCountdown(-5)).toBe('00:00:00');
    expect(recentBuckets('week', new Date('2026-01-06T00:00:00Z'), 3)).toEqual(['2026-W02', '2026-W01', '2025-W52']);
  });
});

describe('UTC days', () => {
  it('starts a day at 00:00 UTC and knows which days exist', () => {
    expect(utcDay(new Date('2026-11-22T23:59:59.999Z'))).toBe('2026-11-22');
    expect(utcDay(new Date('2026-11-23T00:00:00.000Z'))).toBe('2026-11-23');
    expect(dayStart('2026-11-22')?.toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(dayStart('2028-02-29')).not.toBeNull();
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-01', '2026-W47', 'today', '']) expect(dayStart(bad)).toBeNull();
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('board periods', () => {
  const at = new Date('2026-11-22T23:59:59Z');

  it('puts a moment on one board of every period', () => {
    expect(bucketsAt(at)).toEqual({ all: ALL_TIME, week: '2026-W47', day: '2026-11-22' });
    expect(Object.keys(bucketsAt(at))).toEqual(PERIOD_IDS);
  });

  it('accepts each bucket only in its own period, so stored buckets never collide', () => {
    for (const period of PERIOD_IDS) {
      const bucket = PERIODS[period].bucketOf(at);
      for (const other of PERIOD_IDS) expect(isBucket(other, bucket)).toBe(other === period);
      expect(isBucket(period, PERIODS[period].example)).toBe(true);
    }
  });

  it('navigates timed periods and resets them at their next bucket; all time never resets', () => {
    expect(nextReset('day', at)?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(recentBuckets('day', at, 3)).toEqual(['2026-11-22', '2026-11-21', '2026-11-20']);
    expect(recentBuckets('day', at)).toHaveLength(PERIODS.day.pickerLength);
    expect(shiftBucket('day', '2026-11-22', 1)).toBe('2026-11-23');
    expect(nextReset('all', at)).toBeNull();
    expect(recentBuckets('all', at)).toEqual([ALL_TIME]);
    expect(shiftBucket('all', ALL_TIME, -1)).toBeNull();
  });
});
