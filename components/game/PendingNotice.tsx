'use client';

import { usePendingGames } from '@/components/game/usePendingGames';

/** Tells the player about games saved on this device that are still waiting for the server. */
export function PendingNotice() {
  const { waiting, submitted, expired } = usePendingGames();
  if (waiting === 0 && submitted === 0 && expired === 0) return null;
  return (
    <p role="status" data-testid="pending-notice" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 dark:bg-amber-950 dark:text-amber-200">
      {submitted > 0 && `${submitted} saved game${submitted === 1 ? '' : 's'} submitted. `}
      {expired > 0 && `${expired} saved game${expired === 1 ? '' : 's'} expired before the server could take ${expired === 1 ? 'it' : 'them'} and ${expired === 1 ? 'was' : 'were'} removed from this device. `}
      {waiting > 0 && `${waiting} finished game${waiting === 1 ? ' is' : 's are'} saved on this device and will be submitted when the server is reachable.`}
    </p>
  );
}
