'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { ROLES, roleChangeSchema } from '@/lib/validations/moderation';
import { sendJson } from '@/lib/client/send';
import { Button } from '@/components/ui/Button';

/** An admin's form to give a player a role or take it back; the change is logged (grant / revoke). */
export function RoleForm() {
  const router = useRouter();
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const parsed = roleChangeSchema.safeParse({ username: data.get('username'), role: data.get('role') });
    if (!parsed.success) return setMessage({ error: true, text: parsed.error.issues[0]?.message ?? 'Invalid' });
    setPending(true);
    const result = await sendJson('/api/moderation/roles', 'POST', parsed.data);
    setPending(false);
    if (!result.ok) return setMessage({ error: true, text: result.problem.message });
    setMessage({ error: false, text: `${parsed.data.username} is now ${parsed.data.role === 'admin' ? 'an' : 'a'} ${parsed.data.role}.` });
    router.refresh();
  }
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Change a player’s role" className="flex flex-wrap items-end gap-2">
      <label className="block space-y-1">
        <span className="text-xs font-medium">Username</span>
        <input name="username" maxLength={20} required className="w-full rounded-lg border border-line-strong bg-surface px-2 py-1 text-sm" />
      </label>
      <label className="block space-y-1">
        <span className="text-xs font-medium">Role</span>
        <select name="role" defaultValue="moderator" className="w-full rounded-lg border border-line-strong bg-surface px-2 py-1 text-sm">
          {ROLES.map((role) => <option key={role} value={role}>{role}</option>)}
        </select>
      </label>
      <Button type="submit" disabled={pending}>Set role</Button>
      {message ? <p role={message.error ? 'alert' : 'status'} className={`w-full text-sm ${message.error ? 'text-danger' : ''}`}>{message.text}</p> : null}
    </form>
  );
}
