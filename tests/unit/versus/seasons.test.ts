import { describe, expect, it } from 'vitest';
import { formatSeasonBadge } from '@/lib/ui/versus';
import { SEASONS, seasonAt, seasonByNumber } from '@/lib/versus/seasons';
import { versusBoardHref } from '@/lib/ui/links';
import { seasonParamSchema } from '@/lib/validations/versus';

const at = (iso: string) => seasonAt(new Date(iso));

describe('the season calendar', () => {
  it('season 1 is the configured start plus 8 weeks; each next one starts where the last ended', () => {
    expect(SEASONS).toMatchObject({ weeks: 8 });
    expect(at('2026-11-02T00:00:00.000Z')).toEqual({ number: 1, start: new Date('2026-11-02T00:00:00Z'), end: new Date('2026-12-28T00:00:00Z') });
    expect(seasonByNumber(2)).toEqual({ number: 2, start: new Date('2026-12-28T00:00:00Z'), end: new Date('2027-02-22T00:00:00Z') });
  });

  it('the end instant belongs to the next season; the millisecond before it does not', () => {
    expect(at('2026-12-27T23:59:59.999Z').number).toBe(1);
    expect(at('2026-12-28T00:00:00.000Z').number).toBe(2);
    expect(at('2027-02-21T23:59:59.999Z').number).toBe(2);
    expect(at('2027-02-22T00:00:00.000Z').number).toBe(3);
  });

  it('everything before the calendar starts belongs to season 1', () => {
    expect(at('2026-11-01T23:59:59.999Z')).toEqual(seasonByNumber(1));
    expect(at('2020-01-01T00:00:00Z').number).toBe(1);
  });

  it('reads a badge, naming the peak only when it was above the end', () => {
    expect(formatSeasonBadge({ season: 1, band: 'platinum', peakBand: 'diamond' })).toBe('S1 · Platinum (peak Diamond)');
    expect(formatSeasonBadge({ season: 2, band: 'gold', peakBand: 'gold' })).toBe('S2 · Gold');
    expect(formatSeasonBadge({ season: 3, band: 'gold', peakBand: null })).toBe('S3 · Gold');
  });
});

describe('the board’s season parameter', () => {
  it('takes a season number or nothing, and refuses anything else', () => {
    expect(seasonParamSchema.parse(undefined)).toBeUndefined();
    expect(seasonParamSchema.parse('2')).toBe(2);
    for (const bad of ['0', '-1', '1.5', 'two', '999999']) expect(seasonParamSchema.safeParse(bad).success).toBe(false);
    expect(versusBoardHref({ mode: 'battle', season: 1 })).toBe('/leaderboards/versus?mode=battle&season=1');
    expect(versusBoardHref({ mode: 'battle' })).toBe('/leaderboards/versus?mode=battle');
  });
});
