'use client';

import { pauseNote, unrankedReason, type LiveView } from '@/lib/client/live/session';
import { linkTrouble } from '@/lib/client/live/socket';

/**
 * The live channel on the play page: whether the game is ranked and connected, how many watch it,
 * the pauses left or that a pause costs the rank. Loaded with the game (not in the page's first
 * load); quiet while all is well. `redeal`: the game has not begun, and a pause deals a new one.
 */
export function LiveBadge({ view, redeal }: { view: LiveView; redeal: boolean }) {
  const pausing = pauseNote(view, redeal);
  // A game that went on in another tab waits here for pieces that never come, and has no link to
  // lose: the badge says why already, and only that the page must reload is still news.
  const trouble = view.reason === 'elsewhere' ? (view.link === 'outdated' ? linkTrouble('outdated') : null)
    : view.waiting && view.link !== 'outdated' ? 'Waiting for the server…' : linkTrouble(view.link);
  return (
    <div data-testid="live-status" data-link={view.link} data-ranked={view.ranked} data-spectators={view.spectators} className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      {view.ranked ? (
        <span className="font-semibold text-link">● Live · ranked</span>
      ) : (
        <span role="status" className="rounded bg-warning-bg px-2 py-0.5 font-semibold text-on-warning-bg">Unranked now: {unrankedReason(view.reason)}</span>
      )}
      <span className="text-muted" data-testid="spectators">{view.spectators === 1 ? '1 watching' : `${view.spectators} watching`}</span>
      {pausing && <span data-testid="pause-note" className="text-muted">{pausing}</span>}
      {trouble && (
        <span role="status" data-testid="connection" className="rounded bg-warning-bg px-2 py-0.5 font-medium text-on-warning-bg">
          {trouble}
        </span>
      )}
    </div>
  );
}
