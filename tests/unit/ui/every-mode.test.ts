import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BoardTable } from '@/components/boards/BoardTable';
import { ResultPanel } from '@/components/game/ResultPanel';
import { BestChart } from '@/components/profile/BestChart';
import { PersonalBests } from '@/components/profile/PersonalBests';
import type { PlayState } from '@/lib/client/play-controller';
import { createGame, DEFAULT_HANDLING, isRanked, MODE_NAMES, MODES } from '@/lib/engine';
import { PERIODS, PERIOD_IDS } from '@/lib/periods';
import type { BoardRow } from '@/lib/server/games/boards';
import { formatResult, MODE_INFO } from '@/lib/ui/modes';

// Each component that shows a result, rendered for every mode in the engine's table.
const game = { ticks: 4321, score: 98_765, clears: 3 };

describe.each(MODE_NAMES)('mode %s', (mode) => {
  const result = formatResult(mode, game);

  it('heads the board with what it ranks by and shows rows by it', () => {
    const row: BoardRow = { rank: 1, gameId: 'g1', player: { id: 'u1', username: 'ann' }, lines: 40, pieces: 100, pps: 2000, kpp: 3000, finesseFaults: 12, achievedAt: '2026-11-22T12:00:00.000Z', ...game };
    const html = renderToStaticMarkup(createElement(BoardTable, { mode, rows: [row], me: row }));
    expect(html).toContain(`>${MODE_INFO[mode].result.label}</th>`);
    expect(html).toContain(result);
  });

  it('shows the result on the result panel, with a rank on every board period', () => {
    const snapshot = { ...createGame({ mode, seed: 'panel', handling: DEFAULT_HANDLING }).snapshot(), tick: game.ticks, score: game.score, clears: game.clears };
    const state: Extract<PlayState, { phase: 'ended' }> = {
      phase: 'ended',
      ticket: { gameId: 'g1', seed: 'panel', mode, rulesVersion: 1, issuedAt: '', expiresAt: '' },
      result: { ...snapshot, finished: true, reason: MODES[mode].timeLimitTicks > 0 ? 'timeUp' : 'goal' } as never,
      submit: {
        status: 'verified',
        verified: { game: {} as never, personalBest: true, rank: { all: 3, week: 2, day: 1 }, guest: false, review: null },
      },
    };
    const html = renderToStaticMarkup(createElement(ResultPanel, { state, mode, onRetry: () => {}, onRestart: () => {} }));
    expect(html).toContain(result);
    for (const period of PERIOD_IDS) expect(html).toContain(PERIODS[period].tab);
    // A guest keeping the score lands on their profile, not back in a ranked countdown.
    const guest: typeof state = { ...state, submit: { status: 'verified', verified: { game: {} as never, personalBest: false, rank: { all: null, week: null, day: null }, guest: true, review: null } } };
    const saved = renderToStaticMarkup(createElement(ResultPanel, { state: guest, mode, onRetry: () => {}, onRestart: () => {} }));
    expect(saved).toContain('href="/signup?callbackUrl=%2Fprofile"');
    expect(saved).toContain('href="/signin?callbackUrl=%2Fprofile"');
    expect(html).toContain(`/leaderboards?mode=${mode}`);
  });

  it('charts personal bests and lists the best', () => {
    const chart = renderToStaticMarkup(createElement(BestChart, { mode, points: [{ gameId: 'g1', at: '2026-11-22T12:00:00.000Z', ...game }] }));
    expect(chart).toContain(`data-testid="pb-chart-${mode}"`);
    expect(chart).toContain(result);
    // One best is a sentence with its replay, not one dot on an empty plot.
    expect(chart).not.toContain('<svg');
    expect(chart).toContain('href="/replays/g1"');
    const two = renderToStaticMarkup(createElement(BestChart, { mode, points: [{ gameId: 'g0', at: '2026-11-20T12:00:00.000Z', ...game }, { gameId: 'g1', at: '2026-11-22T12:00:00.000Z', ...game }] }));
    expect(two).toContain('<svg');
    expect(two).toContain('data-points="2"');
    const bests = renderToStaticMarkup(createElement(PersonalBests, { bests: [{ id: 'g1', mode, createdAt: '2026-11-22T12:00:00.000Z', ...game }], own: true }));
    // A mode that never ranks (Zen) has no best to list.
    if (!isRanked(mode)) return void expect(bests).not.toContain(MODE_INFO[mode].label);
    expect(bests).toContain(MODE_INFO[mode].label);
    expect(bests).toContain(result);
  });
});
