'use client';

import { useEffect } from 'react';
import { replayActionFor, type ReplayAction } from '@/lib/client/replay-keys';

/** The viewer's keyboard shortcuts (lib/client/replay-keys.ts) on the whole page, for any playback. */
export function useReplayShortcuts(playback: { run(action: ReplayAction): void } | null): void {
  useEffect(() => {
    if (!playback) return;
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      // Typing in a field, or Space/Enter on a focused control, keeps its usual meaning.
      if (target?.closest('select, textarea, input:not([type=range])')) return;
      if ((e.key === ' ' || e.key === 'Enter') && target?.closest('button, a, summary')) return;
      const action = replayActionFor(e);
      if (!action) return;
      e.preventDefault();
      playback.run(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [playback]);
}
