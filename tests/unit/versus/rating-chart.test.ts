import { describe, expect, it } from 'vitest';
import { ratingChart, type ChartBox } from '@/lib/ui/rating-chart';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { VersusRatings } from '@/components/profile/VersusRatings';
import { formatBandChange, formatPlacement, formatRating, formatRatingChange, formatSetScore, RANKED_SET_LENGTHS } from '@/lib/ui/versus';

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

  it('marks the band edges that fall inside its range, named by the band each opens, and is not widened by them', () => {
    const points = [{ at, before: 1500, after: 1540 }, { at, before: 1540, after: 1610 }];
    const plain = ratingChart(points, box);
    const shape = ratingChart(points, box, [{ band: 'silver', rating: 1200 }, { band: 'gold', rating: 1525 }, { band: 'platinum', rating: 1600 }, { band: 'diamond', rating: 1900 }]);
    expect([shape.low, shape.high]).toEqual([plain.low, plain.high]);
    expect(shape.bands.map((b) => b.label)).toEqual(['Gold', 'Platinum']);
    // Higher edges higher up, each between the dots it separates.
    const [gold, platinum] = shape.bands;
    expect(platinum!.y).toBeLessThan(gold!.y);
    expect(shape.dots[0]!.y).toBeLessThan(gold!.y);
    expect(shape.dots[1]!.y).toBeLessThan(platinum!.y);
    expect(plain.bands).toEqual([]);
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
    expect(formatBandChange('gold', 'platinum')).toBe('Gold → Platinum');
    expect(formatBandChange('gold', 'gold')).toBe('Gold');
    expect(formatBandChange(null, 'silver')).toBe('Silver');
    expect(formatBandChange('gold', null)).toBeNull();
    expect(RANKED_SET_LENGTHS).toBe('2, 3 or 4');
  });

  it('the profile shows a player in placement as such, and a settled one without it', () => {
    const standing = { rd: 240, wins: 1, points: [], edges: [] };
    const html = renderToStaticMarkup(
      createElement(VersusRatings, {
        ratings: [
          { ...standing, mode: 'battle', rating: 1522.6, matches: 3, provisional: true, placement: { played: 3, of: 10 }, band: null },
          { ...standing, mode: 'race30', rating: 1610, rd: 80, matches: 12, provisional: false, placement: null, band: 'gold' },
        ],
        badges: [],
      }),
    );
    expect(html).toContain('1523?');
    expect(html).toMatch(/data-testid="versus-placement-battle"[^>]*>placement 3\/10/);
    expect(html).not.toContain('versus-placement-race30');
    expect(html).toContain('Provisional (the “?”)');
    expect(html).toMatch(/data-testid="versus-band-race30"[^>]*>Gold</);
    expect(html).not.toContain('versus-band-battle');
  });

  it('the profile shows each mode’s past seasons as badges, final band and peak, newest first', () => {
    const standing = { rd: 80, wins: 8, matches: 30, provisional: false, placement: null, band: 'gold' as const, points: [], edges: [] };
    const html = renderToStaticMarkup(
      createElement(VersusRatings, {
        ratings: [{ ...standing, mode: 'battle', rating: 1610 }, { ...standing, mode: 'race30', rating: 1580 }],
        badges: [
          { season: 2, mode: 'battle', band: 'gold', peakBand: 'gold' },
          { season: 1, mode: 'battle', band: 'platinum', peakBand: 'diamond' },
        ],
      }),
    );
    const battle = html.match(/data-testid="versus-seasons-battle".*?<\/ul>/)?.[0] ?? '';
    expect([...battle.matchAll(/<li[^>]*>([^<]*)<\/li>/g)].map((m) => m[1])).toEqual(['S2 · Gold', 'S1 · Platinum (peak Diamond)']);
    expect(html).not.toContain('versus-seasons-race30');
  });

  it('the profile’s chart marks today’s band edges within its range', () => {
    const points = [{ matchId: 'm1', at, before: 1500, after: 1540 }, { matchId: 'm2', at, before: 1540, after: 1610 }];
    const html = renderToStaticMarkup(
      createElement(VersusRatings, {
        ratings: [{ mode: 'battle', rating: 1610, rd: 80, wins: 8, matches: 12, provisional: false, placement: null, band: 'platinum', points, edges: [{ band: 'gold', rating: 1525 }, { band: 'platinum', rating: 1600 }, { band: 'diamond', rating: 1900 }] }],
        badges: [],
      }),
    );
    expect(html.match(/data-band-edge="(\w+)"/g)).toEqual(['data-band-edge="gold"', 'data-band-edge="platinum"']);
  });

  it('names band edges that nearly meet apart from each other, in the chart\'s own margin', () => {
    const points = [{ matchId: 'm1', at, before: 1500, after: 1540 }, { matchId: 'm2', at, before: 1540, after: 1610 }];
    const html = renderToStaticMarkup(
      createElement(VersusRatings, {
        ratings: [{ mode: 'battle', rating: 1610, rd: 80, wins: 8, matches: 12, provisional: false, placement: null, band: 'gold', points, edges: [{ band: 'silver', rating: 1560 }, { band: 'gold', rating: 1561 }] }],
        badges: [],
      }),
    );
    const ys = [...html.matchAll(/data-band-edge="\w+"><line[^>]*><\/line><text[^>]* y="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(ys).toHaveLength(2);
    expect(Math.abs(ys[0]! - ys[1]!)).toBeGreaterThanOrEqual(11);
  });

  it('keeps the names of edges crowded at the bottom inside the chart', () => {
    const points = [{ matchId: 'm1', at, before: 1500, after: 1540 }, { matchId: 'm2', at, before: 1540, after: 1610 }];
    const edges = [{ band: 'silver', rating: 1496 }, { band: 'gold', rating: 1497 }, { band: 'platinum', rating: 1498 }, { band: 'diamond', rating: 1499 }] as const;
    const html = renderToStaticMarkup(
      createElement(VersusRatings, { ratings: [{ mode: 'battle', rating: 1610, rd: 80, wins: 8, matches: 12, provisional: false, placement: null, band: 'diamond', points, edges: [...edges] }] }),
    );
    const ys = [...html.matchAll(/data-band-edge="\w+"><line[^>]*><\/line><text[^>]* y="([\d.]+)"/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    expect(ys).toHaveLength(4);
    for (let i = 1; i < ys.length; i++) expect(ys[i]! - ys[i - 1]!).toBeGreaterThanOrEqual(11 - 1e-9);
    const height = Number(/viewBox="0 0 \d+ (\d+)"/.exec(html)![1]);
    expect(ys.at(-1)!).toBeLessThanOrEqual(height - 22);
  });
});

