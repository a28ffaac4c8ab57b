import { describe, expect, it } from 'vitest';
import { formatCountdown, isoWeek, isValidIsoWeek, nextReset, recentWeeks, shiftWeek, weekStart } from '@/lib/periods/weeks';

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
    expect(nextReset(new Date('2026-11-22T23:59:59Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(nextReset(new Date('2026-11-23T00:00:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
    expect(nextReset(new Date('2026-12-31T10:00:00Z')).toISOString()).toBe('2027-01-04T00:00:00.000Z');
    expect(formatCountdown(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999)).toBe('2d 03:04:05');
    expect(formatCountdown(59_000)).toBe('00:00:59');
    expect(formatCountdown(-5)).toBe('00:00:00');
    expect(recentWeeks(new Date('2026-01-06T00:00:00Z'), 3)).toEqual(['2026-W02', '2026-W01', '2025-W52']);
  });
});
