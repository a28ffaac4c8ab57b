'use client';

import { useState } from 'react';
import { REPORT_REASONS, reportSchema } from '@/lib/validations/moderation';
import { FormError } from '@/components/auth/Field';
import { useJsonForm } from '@/components/account/useForm';
import { Done } from '@/components/account/Section';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';

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
      <Button onClick={() => setOpen(true)}>
        Report
      </Button>
    );
  }
  return (
    <Card as="form" onSubmit={onSubmit} noValidate aria-label={gameId ? 'Report this game' : 'Report this player'} className="w-full max-w-md space-y-3">
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
          <Button type="submit" variant="primary" disabled={state.pending}>
            Send report
          </Button>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
        </div>
      )}
    </Card>
  );
}
