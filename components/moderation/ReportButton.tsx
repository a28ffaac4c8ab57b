'use client';

import { useState } from 'react';
import { REPORT_REASONS, reportSchema } from '@/lib/validations/moderation';
import { FormError } from '@/components/auth/Field';
import { useJsonForm } from '@/components/account/useForm';
import { Done } from '@/components/account/Section';

/** "Report" on a replay (a game) or a profile (a player): a reason, an optional note, to the moderators. */
export function ReportButton({ gameId, username }: { gameId?: string; username?: string }) {
  const [open, setOpen] = useState(false);
  const { state, onSubmit } = useJsonForm({
    schema: reportSchema,
    path: '/api/reports',
    fields: ['gameId', 'username', 'reason', 'note'],
    onDone: () => 'Thanks: a moderator will look at it.',
  });
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className="rounded-lg border border-line-strong px-3 py-1 text-sm hover:bg-surface-2">
        Report
      </button>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={gameId ? 'Report this game' : 'Report this player'} className="w-full max-w-md space-y-3 rounded-lg border border-line bg-surface p-4">
      {gameId ? <input type="hidden" name="gameId" value={gameId} /> : null}
      {username ? <input type="hidden" name="username" value={username} /> : null}
      <FormError message={state.errors.form ?? state.errors.gameId} />
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium">Why?</legend>
        {Object.entries(REPORT_REASONS).map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input type="radio" name="reason" value={value} /> {label}
          </label>
        ))}
        {state.errors.reason ? <p role="alert" className="text-sm text-danger">{state.errors.reason}</p> : null}
      </fieldset>
      <label className="block space-y-1">
        <span className="text-sm font-medium">Note (optional)</span>
        <textarea name="note" maxLength={500} rows={2} className="w-full rounded-lg border border-line-strong bg-surface px-3 py-2" />
      </label>
      {state.done ? (
        <Done message={state.done} />
      ) : (
        <div className="flex gap-2">
          <button type="submit" disabled={state.pending} className="rounded-lg bg-primary px-4 py-1 text-sm font-semibold text-on-primary hover:bg-primary-hover">
            Send report
          </button>
          <button type="button" onClick={() => setOpen(false)} className="rounded-lg border border-line-strong px-4 py-1 text-sm">Cancel</button>
        </div>
      )}
    </form>
  );
}
