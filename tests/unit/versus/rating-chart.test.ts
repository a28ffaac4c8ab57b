import { describe, expect, it } from 'vitest';
import { ratingChart, type ChartBox } from '@/lib/ui/rating-chart';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { VersusRatings } from '@/components/profile/VersusRatings';
import { formatPlacement, formatRating, formatRatingChange, formatSetScore } from '@/lib/ui/versus';

const box: ChartBox = { width: 400, height: 200, pad: { left: 40, right: 10, top: 10, bottom: 10 } };
const at = '2026-11-18T12:00:00.000Z';

describe('ratingChart', () => {
  it('draws the first rating before, then one dot per match at its rating after, left to right by match', () => {
    const shape = ratingChart([{ at, before: 1500, after: 1662 }, { at, before: 1662, after: 1580 }], box);
    expect(shape.path.match(/[ML]/g)).toEqual(['M', 'L', 'L']);
    expect(shape.dots.map((d) => d.x)).toEqual([215, 390]);
    expect(shape.path.startsWith('M40 ')).toBe(true);
    // Higher ratings higher up: 1662 above 1580 above 1500.
    const [first, second] = shape.dots;
    expect(first!.y).toBeLessThan(second!.y);
    expect(Number(shape.path.split(' ')[1]!.split('L')[0])).toBeGreaterThan(second!.y);
  });

  it('keeps every rating inside the plot with a margin, and at least 100 points of range', () => {
    const one = ratingChart([{ at, before: 1500, after: 1504 }], box);
    expect(one.high - one.low).toBeGreaterThanOrEqual(100);
    expect(one.low).toBeLessThan(1500);
    expect(one.high).toBeGreaterThan(1504);
    for (const d of one.dots) expect(d.y).toBeGreaterThan(box.pad.top);
    const wide = ratingChart([{ at, before: 1200, after: 1900 }], box);
    expect(wide.low).toBeLessThanOrEqual(1190);
    expect(wide.high).toBeGreaterThanOrEqual(1910);
  });

  it('labels round ratings, three to five of them, inside the range', () => {
    for (const [a, b] of [[1500, 1510], [1400, 1650], [900, 2100]] as const) {
      const shape = ratingChart([{ at, before: a, after: b }], box);
      expect(shape.guides.length).toBeGreaterThanOrEqual(2);
      expect(shape.guides.length).toBeLessThanOrEqual(6);
      for (const g of shape.guides) {
        expect(Number(g.label)).toBeGreaterThanOrEqual(shape.low);
        expect(Number(g.label)).toBeLessThanOrEqual(shape.high);
        expect(Number(g.label) % 25).toBe(0);
      }
    }
  });

  it('has nothing to draw without matches', () => {
    expect(ratingChart([], box)).toMatchObject({ path: '', dots: [] });
  });
});

describe('versus text', () => {
  it('reads ratings, changes and set scores', () => {
    expect(formatRating(1623.4)).toBe('1623');
    expect(formatRating(1500, true)).toBe('1500?');
    expect(formatRatingChange(1500, 1662.2)).toBe('+162');
    expect(formatRatingChange(1662.2, 1580.6)).toBe('−81');
    expect(formatRatingChange(1580.4, 1580.2)).toBe('±0');
    expect(formatSetScore([2, 1])).toBe('2–1');
    expect(formatPlacement({ played: 3, of: 10 })).toBe('placement 3/10');
  });

  it('the profile shows a player in placement as such, and a settled one without it', () => {
    const standing = { rd: 240, wins: 1, points: [] };
    const html = renderToStaticMarkup(
      createElement(VersusRatings, {
        ratings: [
          { ...standing, mode: 'battle', rating: 1522.6, matches: 3, provisional: true, placement: { played: 3, of: 10 } },
          { ...standing, mode: 'race30', rating: 1610, rd: 80, matches: 12, provisional: false, placement: null },
        ],
      }),
    );
    expect(html).toContain('1523?');
    expect(html).toMatch(/data-testid="versus-placement-battle"[^>]*>placement 3\/10/);
    expect(html).not.toContain('versus-placement-race30');
    expect(html).toContain('Provisional (the “?”)');
  });
});
