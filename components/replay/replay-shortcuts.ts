import { replayActionFor, type ReplayAction } from '@/lib/client/replay-keys';

/**
 * The viewer's keyboard shortcuts (lib/client/replay-keys.ts) on the whole page, for any playback.
 * Called in the effect that creates the playback, so a key pressed as soon as the viewer shows its
 * first frame is not lost to a render in between. Returns the function that stops listening.
 */
export function listenForReplayShortcuts(playback: { run(action: ReplayAction): void }): () => void {
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
}
