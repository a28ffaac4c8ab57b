'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { moderationActionSchema, type MODERATION_ACTIONS } from '@/lib/validations/moderation';
import { sendJson } from '@/lib/client/send';
import { Button } from '@/components/ui/Button';
import type { ButtonVariant } from '@/components/ui/button-class';

type Action = (typeof MODERATION_ACTIONS)[number];
const LABELS: Record<Action, string> = {
  approve: 'Approve', reject: 'Reject game', ban: 'Ban player', unban: 'Lift ban', dismiss: 'Dismiss report', void: 'Void match',
  dismiss_flag: 'Dismiss flag', confirm_flag: 'Confirm flag',
};
// What takes something away from a player is drawn as a danger.
// Confirming a flag takes nothing away by itself (the moderator bans or rejects with the others).
const VARIANTS: Record<Action, ButtonVariant> = {
  approve: 'secondary', reject: 'danger', ban: 'danger', unban: 'secondary', dismiss: 'secondary', void: 'danger', dismiss_flag: 'secondary', confirm_flag: 'secondary',
};

/** The buttons under one queue entry; every decision carries a reason, which the audit log keeps (and a ban shows the player). */
export function ActionForm({ actions, gameId, matchId, username, reportId, flagId, label }: { actions: Action[]; gameId?: string; matchId?: string; username?: string; reportId?: string; flagId?: string; label: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
    const parsed = moderationActionSchema.safeParse({ action: submitter?.value, gameId, matchId, username, reportId, flagId, reason });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Invalid');
    setPending(true);
    setError(null);
    const result = await sendJson('/api/moderation/actions', 'POST', parsed.data);
    setPending(false);
    if (!result.ok) return setError(result.problem.message);
    router.refresh();
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label} className="flex flex-wrap items-end gap-2">
      <label className="block grow space-y-1">
        <span className="text-xs font-medium">Reason (logged; shown to a banned player)</span>
        <input name="reason" maxLength={500} className="w-full rounded-lg border border-line-strong bg-surface px-2 py-1 text-sm" />
      </label>
      {actions.map((action) => (
        <Button key={action} type="submit" value={action} disabled={pending} variant={VARIANTS[action]}>
          {LABELS[action]}
        </Button>
      ))}
      {error ? <p role="alert" className="w-full text-sm text-danger">{error}</p> : null}
    </form>
  );
}
