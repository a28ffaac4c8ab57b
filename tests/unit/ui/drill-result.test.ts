import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ResultPanel } from '@/components/game/ResultPanel';
import type { PlayState } from '@/lib/client/play-controller';
import { createGame, DEFAULT_HANDLING, type Mode, type Snapshot } from '@/lib/engine';

function panel(mode: Mode, result: Partial<Snapshot>): string {
  const snapshot = { ...createGame({ mode, seed: 'panel', handling: DEFAULT_HANDLING }).snapshot(), ...result };
  const state: Extract<PlayState, { phase: 'ended' }> = {
    phase: 'ended',
    ticket: { gameId: 'practice', seed: 'panel', mode, rulesVersion: 5, issuedAt: '', expiresAt: '' },
    result: snapshot as never,
    submit: { status: 'practice' },
  };
  return renderToStaticMarkup(createElement(ResultPanel, { state, mode, onRetry: () => {}, onRestart: () => {} }));
}

describe('the result panel of a drill', () => {
  it('says why 20 TSD ended, and shows points where there is no time to rank', () => {
    const html = panel('tsd20', { over: true, finished: false, toppedOut: true, reason: 'wrongClear', tick: 600, score: 2400, clears: 2 });
    expect(html).toContain('a clear that does not count');
    expect(html).toContain('>2,400<');
  });

  it('ranks Perfect Clears by its count whatever ended it', () => {
    const html = panel('pc', { over: true, finished: false, toppedOut: true, reason: 'tooHigh', tick: 3600, score: 9000, clears: 3 });
    expect(html).toContain('too high to clear');
    expect(html).toContain('>3 clears in 1:00.00<');
  });
});
