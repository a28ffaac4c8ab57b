import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BoardTable } from '@/components/boards/BoardTable';
import type { BoardRow } from '@/lib/server/games/boards';

const row = (rank: number, name = `p${rank}`): BoardRow => ({
  rank, gameId: `game${rank}`, player: { id: `user${rank}`, username: name },
  score: 0, lines: 40, ticks: 3000 + rank, pieces: 100, pps: 2000, kpp: 3000, finesseFaults: 12, clears: 0, achievedAt: '2026-11-18T12:00:00.000Z',
});

/** Rank and test id of each body row, in document order: e.g. "gap", "7:pinned-row", "8:my-row". */
function layout(html: string): string[] {
  const body = html.slice(html.indexOf('<tbody>'));
  return [...body.matchAll(/<tr([^>]*)>(?:<td[^>]*>(\d+)<\/td>|<td[^>]*>⋯)/g)].map(([, attrs, rank]) => {
    const id = /data-testid="([^"]+)"/.exec(attrs!)?.[1];
    return rank === undefined ? 'gap' : id ? `${rank}:${id}` : rank;
  });
}

const render = (rows: BoardRow[], me: BoardRow | null) => renderToStaticMarkup(createElement(BoardTable, { mode: 'sprint', rows, me }));

describe('BoardTable', () => {
  const page = [row(51), row(52), row(53)];

  it('highlights the player’s own row where it is on the page', () => {
    expect(layout(render(page, page[1]!))).toEqual(['51', '52:my-row', '53']);
  });

  it('pins the player’s row above the page when they rank higher, below when lower', () => {
    expect(layout(render(page, row(7)))).toEqual(['7:pinned-row', 'gap', '51', '52', '53']);
    expect(layout(render(page, row(90)))).toEqual(['51', '52', '53', 'gap', '90:pinned-row']);
  });

  it('links every player to their profile and every row to its replay', () => {
    const html = render([row(1, 'Ann-1')], null);
    expect(html).toContain('href="/u/Ann-1"');
    expect(html).toContain('href="/replays/game1"');
  });

  it('shows finesse faults on boards ranked by time, a dash for a game with no count, and none on score boards', () => {
    const html = render([row(1), { ...row(2), finesseFaults: null }], null);
    expect(html).toContain('>Faults</abbr>');
    expect([...html.matchAll(/<td class="[^"]*text-right[^"]*">(\d+|—)<\/td>/g)].map((m) => m[1])).toEqual(expect.arrayContaining(['12', '—']));
    const score = renderToStaticMarkup(createElement(BoardTable, { mode: 'marathon', rows: [row(1)], me: null }));
    expect(score).not.toContain('Faults');
  });
});
