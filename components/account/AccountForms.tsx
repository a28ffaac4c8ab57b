'use client';

import { signIn, signOut } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { changePasswordSchema, changeUsernameSchema, DELETE_CONFIRMATION, deleteAccountSchema, emailSchema, reauthSchema } from '@/lib/validations/account';
import { USERNAME_RULES } from '@/lib/validations/auth';
import { sendJson } from '@/lib/client/send';
import { Field, FormError, SubmitButton } from '@/components/auth/Field';
import { RecoveryCodeList } from '@/components/account/RecoveryCodes';
import { markAccountDeleted } from '@/components/account/DeletedNotice';
import { Done, Section } from '@/components/account/Section';
import { useJsonForm } from '@/components/account/useForm';
import { Button } from '@/components/ui/Button';
import { buttonClass } from '@/components/ui/button-class';

export type AccountView = {
  username: string;
  hasPassword: boolean;
  /** Enabled providers the account signs in with (for an account without a password, its proof). */
  providers: { id: string; name: string }[];
  /** How recent that sign-in must be (the server's RECENT_SIGN_IN_MS). */
  recentSignInMinutes: number;
  email: string | null;
  mail: boolean;
  recoveryCodesLeft: number;
  renameAfter: string | null;
};

export function AccountForms({ account }: { account: AccountView }) {
  return (
    <div className="space-y-6">
      <UsernameForm account={account} />
      <PasswordForm account={account} />
      <SessionsForm />
      {account.mail ? <EmailForm account={account} /> : null}
      <RecoveryForm account={account} />
      <Section title="Your data">
        <p className="text-sm text-muted">Everything Linefall stores about you (profile, settings, every game with its replay, your reports) as one JSON file.</p>
        <a href="/api/account/export" download className={buttonClass({ size: 'md' })}>
          Download my data
        </a>
      </Section>
      <DeleteForm account={account} />
    </div>
  );
}

function UsernameForm({ account }: { account: AccountView }) {
  const router = useRouter();
  const { state, onSubmit } = useJsonForm<{ username: string }>({
    schema: changeUsernameSchema,
    path: '/api/account/username',
    fields: ['username'],
    onDone: (value) => {
      router.refresh();
      return `Your username is now ${value.username}. Links to your old name lead here for 90 days.`;
    },
  });
  return (
    <Section title="Username">
      <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Change username">
        <FormError message={state.errors.form} />
        <Field label="New username" name="username" defaultValue={account.username} autoComplete="username" hint={`${USERNAME_RULES}. Once every 30 days${account.renameAfter ? `; next on ${account.renameAfter}` : ''}.`} error={state.errors.username} />
        <SubmitButton pending={state.pending}>Change username</SubmitButton>
        <Done message={state.done} />
      </form>
    </Section>
  );
}

function PasswordForm({ account }: { account: AccountView }) {
  const { state, onSubmit } = useJsonForm({
    schema: changePasswordSchema,
    path: '/api/account/password',
    fields: ['current', 'next'],
    onDone: (_value, form) => {
      form.reset();
      return 'Password changed. Every other device was signed out.';
    },
  });
  return (
    <Section title="Password">
      <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Change password">
        <FormError message={state.errors.form} />
        {account.hasPassword ? <Field label="Current password" name="current" type="password" autoComplete="current-password" error={state.errors.current} /> : <ReauthNote account={account} />}
        <Field label="New password" name="next" type="password" autoComplete="new-password" hint="8–128 characters" error={state.errors.next} />
        <SubmitButton pending={state.pending}>Change password</SubmitButton>
        <Done message={state.done} />
      </form>
    </Section>
  );
}

function SessionsForm() {
  const [state, setState] = useState<{ pending: boolean; message: string | null; error?: string }>({ pending: false, message: null });
  async function signOutEverywhere() {
    setState({ pending: true, message: null });
    const result = await sendJson('/api/account/sessions', 'DELETE');
    setState(result.ok ? { pending: false, message: 'Every other device is signed out. This one stays signed in.' } : { pending: false, message: null, error: result.problem.message });
  }
  return (
    <Section title="Devices">
      <p className="text-sm text-muted">Signed in on a shared or lost device? Sign out of every device but this one.</p>
      <FormError message={state.error} />
      <Button size="md" disabled={state.pending} onClick={signOutEverywhere}>
        Sign out everywhere else
      </Button>
      <Done message={state.message} />
    </Section>
  );
}

function EmailForm({ account }: { account: AccountView }) {
  const { state, onSubmit } = useJsonForm({
    schema: emailSchema,
    path: '/api/account/email',
    fields: ['email'],
    onDone: () => 'Check your inbox: the link in our mail confirms the address (for a day).',
  });
  return (
    <Section title="Email for password resets">
      <p className="text-sm text-muted">{account.email ? `Confirmed: ${account.email}.` : 'No address yet: without one, a forgotten password needs a recovery code.'} It is used for nothing else.</p>
      <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Email">
        <FormError message={state.errors.form} />
        <Field label="Email" name="email" type="email" autoComplete="email" error={state.errors.email} />
        <SubmitButton pending={state.pending}>{account.email ? 'Change email' : 'Add email'}</SubmitButton>
        <Done message={state.done} />
      </form>
    </Section>
  );
}

function RecoveryForm({ account }: { account: AccountView }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  const { state, onSubmit } = useJsonForm<{ codes: string[] }>({
    schema: reauthSchema,
    path: '/api/account/recovery-codes',
    fields: ['password'],
    onDone: (value, form) => {
      form.reset();
      setCodes(value.codes);
      return null;
    },
  });
  return (
    <Section title="Recovery codes">
      <p className="text-sm text-muted">
        {account.recoveryCodesLeft} unused. New codes replace all the old ones.
      </p>
      <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Recovery codes">
        <FormError message={state.errors.form} />
        {account.hasPassword ? <Field label="Password" name="password" type="password" autoComplete="current-password" error={state.errors.password} /> : <ReauthNote account={account} />}
        <SubmitButton pending={state.pending}>New recovery codes</SubmitButton>
      </form>
      {codes ? <RecoveryCodeList codes={codes} /> : null}
    </Section>
  );
}

function DeleteForm({ account }: { account: AccountView }) {
  const { state, onSubmit } = useJsonForm({
    schema: deleteAccountSchema,
    path: '/api/account',
    method: 'DELETE',
    fields: ['password', 'confirm'],
    onDone: async () => {
      markAccountDeleted();
      await signOut({ callbackUrl: '/' });
      return 'Your account is deleted.';
    },
  });
  return (
    <Section title="Delete account">
      <p className="text-sm text-muted">
        Your account, settings and every game you played (with its replay) are deleted for good, and you leave every leaderboard. Download your data first if you want to keep it.
      </p>
      <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Delete account">
        <FormError message={state.errors.form} />
        {account.hasPassword ? <Field label="Password" name="password" type="password" autoComplete="current-password" error={state.errors.password} /> : <ReauthNote account={account} />}
        <Field label={`Type “${DELETE_CONFIRMATION}”`} name="confirm" autoComplete="off" error={state.errors.confirm} />
        <Button type="submit" variant="danger" size="md" block disabled={state.pending}>
          {state.pending ? 'Please wait…' : 'Delete my account'}
        </Button>
        <Done message={state.done} />
      </form>
    </Section>
  );
}

/**
 * An account without a password proves itself by a recent sign-in with its provider (the server
 * answers `reauth_required` otherwise): the way back here through that provider.
 */
function ReauthNote({ account }: { account: AccountView }) {
  return (
    <p className="text-sm text-muted">
      Your account has no password: this needs a sign-in with {account.providers.map((p) => p.name).join(' or ') || 'your provider'} in the last{' '}
      {account.recentSignInMinutes} minutes.{' '}
      {account.providers.map((p) => (
        <button key={p.id} type="button" className="link" onClick={() => signIn(p.id, { callbackUrl: '/account' })}>
          Sign in again with {p.name}
        </button>
      ))}
    </p>
  );
}
