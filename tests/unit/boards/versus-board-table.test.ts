import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RatingTable, SeasonTable, WinsTable } from '@/components/boards/VersusBoardTable';
import type { MyRatingRow, RatingRow } from '@/lib/server/versus/boards';

const row = (rank: number, name = `p${rank}`): RatingRow => ({ rank, player: { id: `user${rank}`, username: name }, rating: 1900 - rank * 10.4, rd: 80, matches: 30, wins: 15, band: rank === 1 ? 'platinum' : 'gold' });
const body = (html: string) => html.slice(html.indexOf('<tbody>'));

describe('versus board tables', () => {
  const page = [row(1), row(2)];

  it('pins a provisional viewer below the page with no rank, a "?" on the rating, and a line saying why', () => {
    const me: MyRatingRow = { ...row(0, 'newbie'), rank: null, band: null, provisional: true, placement: { played: 3, of: 10 }, rating: 1522.6, rd: 240 };
    const html = body(renderToStaticMarkup(createElement(RatingTable, { rows: page, me })));
    const order = ['p1', 'p2', '⋯', 'newbie', 'Provisional'].map((text) => html.indexOf(text));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain('1523?');
    expect(html).toContain('data-testid="pinned-row"');
    // The board's rows show their bands; the provisional viewer has none.
    expect(html.match(/data-band="(\w+)"/g)).toEqual(['data-band="platinum"', 'data-band="gold"']);
    expect(html.slice(html.indexOf('newbie'))).not.toContain('data-band');
  });

  it('on an empty board the provisional viewer’s row comes after the board’s message, with no gap row', () => {
    const me: MyRatingRow = { ...row(0, 'newbie'), rank: null, band: null, provisional: true, placement: { played: 3, of: 10 }, rating: 1522.6, rd: 240 };
    const html = body(renderToStaticMarkup(createElement(RatingTable, { rows: [], me })));
    expect(html).not.toContain('⋯');
    expect(html.indexOf('No established ratings yet')).toBeGreaterThanOrEqual(0);
    expect(html.indexOf('No established ratings yet')).toBeLessThan(html.indexOf('newbie'));
  });

  it('RD and matches are desk-only columns: a phone shows rank, player, rating, band and wins', () => {
    const html = renderToStaticMarkup(createElement(RatingTable, { rows: page, me: null }));
    const hidden = [...html.matchAll(/<t[hd] class="[^"]*hidden sm:table-cell[^"]*">(.*?)<\/t[hd]>/g)].map((m) => m[1]);
    expect(hidden.slice(0, 2).map((h) => h!.replace(/<[^>]+>/g, ''))).toEqual(['RD', 'Matches']);
    expect(hidden).toHaveLength(2 * 3);
  });

  it('an established viewer on the page is highlighted there, with no note', () => {
    const html = renderToStaticMarkup(createElement(RatingTable, { rows: page, me: { ...page[1]!, provisional: false, placement: null } }));
    expect(html).toContain('data-testid="my-row"');
    expect(html).not.toContain('pinned');
    expect(html).toContain('1879');
  });

  it('weekly wins: pinned above when the viewer ranks higher than the page', () => {
    const wins = (rank: number) => ({ rank, player: { id: `u${rank}`, username: `w${rank}` }, wins: 10 - rank, lastWinAt: '2026-11-18T12:00:00.000Z' });
    const html = body(renderToStaticMarkup(createElement(WinsTable, { rows: [wins(51), wins(52)], me: wins(3) })));
    expect(html.indexOf('w3')).toBeLessThan(html.indexOf('⋯'));
    expect(html.indexOf('⋯')).toBeLessThan(html.indexOf('w51'));
  });

  it('a closed season’s board shows each row’s final rating and band, and the peak (a dash when none was seen)', () => {
    const html = body(renderToStaticMarkup(createElement(SeasonTable, {
      rows: [
        { rank: 1, player: { id: 'a', username: 'ann' }, rating: 1702.4, band: 'platinum', peakBand: 'diamond', matches: 40, wins: 25 },
        { rank: 2, player: { id: 'b', username: 'ben' }, rating: 1650, band: 'gold', peakBand: null, matches: 12, wins: 5 },
      ],
    })));
    expect(html.match(/data-band="(\w+)"/g)).toEqual(['data-band="platinum"', 'data-band="diamond"', 'data-band="gold"']);
    expect(html).toContain('1702');
    expect(html.slice(html.indexOf('ben'))).toContain('—');
  });
});
