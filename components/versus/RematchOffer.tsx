'use client';

import type { RematchView } from '@/lib/client/live/versus-session';
import type { Seat } from '@/lib/live/versus';
import { Button } from '@/components/ui/Button';

/** Why a rematch did not happen, as the player who stayed reads it. */
function endText(rematch: Extract<RematchView, { kind: 'over' }>, opponent: string): string {
  switch (rematch.reason) {
    case 'left':
      return `${opponent} left.`;
    case 'declined':
      return 'No rematch this time.';
    case 'expired':
      return rematch.message ?? 'The rematch offer expired.';
    case 'refused':
      return rematch.message ?? 'The ranked rules do not allow this pair another match now.';
    default:
      return rematch.reason satisfies never;
  }
}

/** After a quick match: "Rematch", "waiting for X…", "X wants a rematch" with Accept, or how it ended. */
export function RematchOffer({ rematch, you, opponent, onRematch }: { rematch: RematchView; you: Seat; opponent: string; onRematch: (want: boolean) => void }) {
  if (rematch.kind === 'over')
    return <p role="status" data-testid="rematch" data-state={rematch.reason} className="text-sm text-field-muted">{endText(rematch, opponent)}</p>;
  const [mine, theirs] = [rematch.wants[you], rematch.wants[you === 0 ? 1 : 0]];
  const state = mine && theirs ? 'starting' : mine ? 'waiting' : theirs ? 'asked' : 'offered';
  return (
    <div data-testid="rematch" data-state={state} className="flex flex-wrap items-center justify-center gap-2">
      {state === 'offered' && <Button variant="primary" size="md" onClick={() => onRematch(true)}>Rematch</Button>}
      {state === 'waiting' && (
        <>
          <span role="status">Waiting for {opponent}…</span>
          <Button variant="field" size="md" onClick={() => onRematch(false)}>Cancel rematch</Button>
        </>
      )}
      {state === 'asked' && (
        <>
          <span role="status">{opponent} wants a rematch</span>
          <Button variant="primary" size="md" onClick={() => onRematch(true)}>Accept</Button>
          <Button variant="field" size="md" onClick={() => onRematch(false)}>Decline</Button>
        </>
      )}
      {state === 'starting' && <span role="status">Starting the rematch…</span>}
    </div>
  );
}
