import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StatsTrends, type ModeTrend } from '@/components/profile/StatsTrends';
import { MatchStats } from '@/components/versus/MatchStats';
import type { ChartBox } from '@/lib/ui/rating-chart';
import { trendChart } from '@/lib/ui/trend-chart';

const box: ChartBox = { width: 200, height: 100, pad: { left: 10, right: 10, top: 10, bottom: 10 } };

describe('trendChart', () => {
  it('spreads matches evenly left to right, higher values higher up, every value inside the range', () => {
    const shape = trendChart([1, 3, 2], box);
    expect(shape.dots.map((d) => d.x)).toEqual([10, 100, 190]);
    const [a, b, c] = shape.dots.map((d) => d.y);
    expect(b!).toBeLessThan(c!);
    expect(c!).toBeLessThan(a!);
    expect(shape.low).toBeLessThan(1);
    expect(shape.high).toBeGreaterThan(3);
    expect(shape.path).toBe(shape.dots.map((d, i) => `${i === 0 ? 'M' : 'L'}${d.x} ${d.y}`).join(''));
  });

  it('draws one match in the middle, equal values level, and never below zero', () => {
    expect(trendChart([2], box).dots).toEqual([{ x: 100, y: 50 }]);
    const flat = trendChart([0, 0], box);
    expect(flat.low).toBe(0);
    expect(flat.dots[0]!.y).toBe(flat.dots[1]!.y);
    expect(trendChart([0.1, 5], box).low).toBe(0);
  });
});

const at = (day: number) => `2026-11-${String(day).padStart(2, '0')}T12:00:00.000Z`;

describe('the profile’s versus stats', () => {
  const trend: ModeTrend = {
    mode: 'battle',
    points: [
      { matchId: 'a', at: at(20), games: 2, apm: 30, pps: 1.5, vs: 62.5 },
      { matchId: 'b', at: at(21), games: 3, apm: 42.25, pps: 2.125, vs: 80 },
    ],
    last10: { apm: 36.1, pps: 1.8, vs: 71.25 },
    allTime: { apm: 25.5, pps: 1.25, vs: 50.04 },
    unmeasured: 1,
  };

  it('shows the averages over the last ten and all time, a line per rate, and says what was not measured', () => {
    const html = renderToStaticMarkup(createElement(StatsTrends, { trends: [trend, { mode: 'race30', points: [], last10: null, allTime: null, unmeasured: 0 }] }));
    const averages = html.slice(html.indexOf('stats-averages-battle'), html.indexOf('</table>'));
    expect(averages).toMatch(/Last 10 matches.*36\.1.*1\.80.*71\.3.*All time.*25\.5.*1\.25.*50\.0/s);
    for (const rate of ['apm', 'pps', 'vs']) expect(html).toContain(`stats-line-battle-${rate}`);
    // Each line ends on the newest match's value, to the rate's own decimals.
    expect(html).toMatch(/APM \(attack lines per minute\) over 2 matches, from 30\.0 to 42\.3/);
    expect(html).toMatch(/PPS \(pieces per second\) over 2 matches, from 1\.50 to 2\.13/);
    expect(html).toContain('1 earlier game was stored before attack was measured and counts in none of these');
    expect(html).toContain('No measured Race 30 matches yet.');
    expect(html).not.toContain('stats-unmeasured-race30');
  });
});

/** The words of a table row's cells, the row found by its game and seat. */
function cellsOf(html: string, game: string, seat: number): string[] {
  const from = html.indexOf('>', html.indexOf(`data-game="${game}" data-seat="${seat}"`)) + 1;
  return html.slice(from, html.indexOf('</tr>', from)).replace(/<[^>]+>/g, ' ').trim().split(/\s+/);
}

describe('the match page’s stats table', () => {
  it('a row per game and seat with its rates, and the set’s totals over its whole time', () => {
    const stats = [
      // 60 s, 120 pieces, 30 attack, 12 cleared: 30 APM, 2 PPS, 70 VS.
      { gameIndex: 0, seat: 0 as const, pieces: 120, ticks: 3600, attack: 30, garbageCleared: 12, sent: 25 },
      { gameIndex: 0, seat: 1 as const, pieces: 90, ticks: 3600, attack: 15, garbageCleared: 0, sent: 10 },
      // 30 s, 45 pieces, 0 attack, 3 cleared: 0 APM, 1.5 PPS, 10 VS.
      { gameIndex: 1, seat: 0 as const, pieces: 45, ticks: 1800, attack: 0, garbageCleared: 3, sent: 0 },
      { gameIndex: 1, seat: 1 as const, pieces: 60, ticks: 1800, attack: 9, garbageCleared: 0, sent: 9 },
    ];
    const html = renderToStaticMarkup(createElement(MatchStats, { games: [{ index: 0 }, { index: 1 }], names: ['ann', 'ben'], stats }));
    const row = (game: string, seat: number) => cellsOf(html, game, seat);
    expect(row('1', 0)).toEqual(['1', 'ann', '30.0', '2.00', '70.0', '120', '30', '12']);
    expect(row('2', 0)).toEqual(['2', 'ann', '0.0', '1.50', '10.0', '45', '0', '3']);
    // The set: 90 s, 165 pieces, 30 attack, 15 cleared: 20 APM, 1.83 PPS, 50 VS.
    expect(row('Set', 0)).toEqual(['Set', 'ann', '20.0', '1.83', '50.0', '165', '30', '15']);
    expect(html).not.toContain('match-stats-missing');
  });

  it('a seat-game without attack shows its PPS, dashes for the rest, and the set no attack rates', () => {
    const stats = [
      { gameIndex: 0, seat: 0 as const, pieces: 120, ticks: 3600, attack: null, garbageCleared: null, sent: null },
      { gameIndex: 1, seat: 0 as const, pieces: 45, ticks: 1800, attack: 0, garbageCleared: 3, sent: 0 },
    ];
    const html = renderToStaticMarkup(createElement(MatchStats, { games: [{ index: 0 }, { index: 1 }], names: ['ann', 'Guest 4F2A'], stats }));
    const text = (game: string, seat: number) => cellsOf(html, game, seat);
    expect(text('1', 0)).toEqual(['1', 'ann', '—', '2.00', '—', '120', '—', '—']);
    expect(text('1', 1)).toEqual(['1', 'Guest', '4F2A', '—', '—', '—', '—', '—', '—']);
    expect(text('Set', 0)).toEqual(['Set', 'ann', '—', '1.83', '—', '165', '—', '—']);
    expect(html).toContain('match-stats-missing');
  });
});
