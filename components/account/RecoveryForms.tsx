'use client';

import Link from 'next/link';
import { emailSchema, recoverSchema, resetPasswordSchema, tokenSchema } from '@/lib/validations/account';
import { Field, FormError, SubmitButton } from '@/components/auth/Field';
import { Done } from '@/components/account/Section';
import { useJsonForm } from '@/components/account/useForm';

/** Asks for a reset link; the answer never says whether the address has an account. */
export function ForgotByEmailForm() {
  const { state, onSubmit } = useJsonForm<{ message: string }>({
    schema: emailSchema,
    path: '/api/account/forgot',
    fields: ['email'],
    onDone: (value) => value.message,
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Reset by email">
      <FormError message={state.errors.form} />
      <Field label="Email" name="email" type="email" autoComplete="email" hint="The address you confirmed on your account page" error={state.errors.email} />
      <SubmitButton pending={state.pending}>Send reset link</SubmitButton>
      <Done message={state.done} />
    </form>
  );
}

function SignInAgain({ done }: { done: string | null }) {
  if (!done) return null;
  return (
    <p role="status" className="text-sm">
      {done}{' '}
      <Link className="link font-medium" href="/signin">Sign in</Link>
    </p>
  );
}

export function RecoveryCodeForm() {
  const { state, onSubmit } = useJsonForm({
    schema: recoverSchema,
    path: '/api/account/reset',
    fields: ['username', 'code', 'password'],
    onDone: () => 'Your password is changed and every device was signed out.',
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Reset with a recovery code">
      <FormError message={state.errors.form} />
      <Field label="Username" name="username" autoComplete="username" error={state.errors.username} />
      <Field label="Recovery code" name="code" autoComplete="off" hint="Like abcd-efgh-jkmn; each works once" error={state.errors.code} />
      <Field label="New password" name="password" type="password" autoComplete="new-password" hint="8–128 characters" error={state.errors.password} />
      <SubmitButton pending={state.pending}>Set new password</SubmitButton>
      <SignInAgain done={state.done} />
    </form>
  );
}

export function ResetPasswordForm({ token }: { token: string }) {
  const { state, onSubmit } = useJsonForm({
    schema: resetPasswordSchema,
    path: '/api/account/reset',
    fields: ['token', 'password'],
    onDone: () => 'Your password is changed and every device was signed out.',
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Reset password">
      <FormError message={state.errors.form ?? state.errors.token} />
      <input type="hidden" name="token" value={token} />
      <Field label="New password" name="password" type="password" autoComplete="new-password" hint="8–128 characters" error={state.errors.password} />
      <SubmitButton pending={state.pending}>Set new password</SubmitButton>
      <SignInAgain done={state.done} />
    </form>
  );
}

export function ConfirmEmailForm({ token }: { token: string }) {
  const { state, onSubmit } = useJsonForm<{ email: string }>({
    schema: tokenSchema,
    path: '/api/account/email/verify',
    fields: ['token'],
    onDone: (value) => `${value.email} is confirmed: password resets will go there.`,
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Confirm email">
      <FormError message={state.errors.form ?? state.errors.token} />
      <input type="hidden" name="token" value={token} />
      <SubmitButton pending={state.pending}>Confirm this address</SubmitButton>
      <Done message={state.done} />
    </form>
  );
}
