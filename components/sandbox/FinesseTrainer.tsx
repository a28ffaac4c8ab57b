'use client';

import type { SandboxView } from '@/lib/client/sandbox-controller';
import { Check } from '@/components/ui/Check';
import { explainFault } from '@/lib/ui/finesse';

/**
 * The finesse trainer's switch and its word on the last piece it took back: on, a piece placed
 * with more presses than it needs goes back to where it appeared (lib/client/sandbox.ts).
 */
export function FinesseTrainer({ view, on, onChange }: { view: SandboxView | null; on: boolean; onChange: (on: boolean) => void }) {
  const fault = view?.fault ?? null;
  // The keys go back to the field at once: a focused box takes the arrows, and Space would untick it.
  const toggle = (next: boolean) => {
    onChange(next);
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  };
  const why = fault ? explainFault(fault) : null;
  return (
    <div data-testid="finesse-trainer" className="space-y-1">
      <Check label="Finesse trainer: retry a piece placed with extra presses" checked={on} disabled={!view} onChange={toggle} />
      {on && why && fault ? (
        <p role="status" data-testid="finesse-fault" className="rounded-lg bg-warning-bg px-3 py-2 text-sm text-on-warning-bg">
          {fault.piece}: {why}. Try again.
        </p>
      ) : (
        <p className="text-xs text-muted" data-testid="finesse-count">
          Finesse faults: {view?.faults ?? 0} · tucks and spins are not judged
        </p>
      )}
    </div>
  );
}
