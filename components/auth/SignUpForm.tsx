'use client';

import { signIn } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { readProblem } from '@/lib/client/errors';
import { USERNAME_RULES, signUpSchema } from '@/lib/validations/auth';
import { Field, FormError, SubmitButton } from '@/components/auth/Field';
import { safeCallback } from '@/components/auth/safe-callback';
import { RecoveryCodeList } from '@/components/account/RecoveryCodes';
import { Button } from '@/components/ui/Button';

type Errors = { username?: string; password?: string; form?: string };

export function SignUpForm({ callbackUrl }: { callbackUrl?: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  // Without mail on this site, sign-up answers with recovery codes: shown once, before going on.
  const [codes, setCodes] = useState<string[] | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = signUpSchema.safeParse({ username: form.get('username'), password: form.get('password') });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'password' ? 'password' : 'username';
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setPending(true);
    setErrors({});
    try {
      const response = await fetch('/api/account', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(parsed.data),
      });
      if (!response.ok) {
        const { message, field } = await readProblem(response, 'Sign-up failed. Please try again.');
        setErrors(field === 'username' || field === 'password' ? { [field]: message } : { form: message });
        return;
      }
      const created = (await response.json().catch(() => null)) as { recoveryCodes?: string[] | null } | null;
      const result = await signIn('credentials', { ...parsed.data, redirect: false });
      if (!result || result.error) {
        setErrors({ form: 'Your account was created, but signing in failed. Please sign in.' });
        return;
      }
      if (created?.recoveryCodes?.length) {
        // No refresh until the player goes on: refreshed, /signup redirects a signed-in player and
        // the codes, the only password reset without mail, vanished before anyone could read them.
        setCodes(created.recoveryCodes);
        return;
      }
      router.push(safeCallback(callbackUrl));
      router.refresh();
    } catch {
      setErrors({ form: 'Could not reach the server. Check your connection and try again.' });
    } finally {
      setPending(false);
    }
  }

  if (codes) {
    return (
      // Focus moves to the codes as the form gives way to them (a keyboard is not left nowhere), and
      // not to the button after them: an Enter still held from submitting would press it.
      <div ref={(el) => el?.focus()} tabIndex={-1} role="region" aria-label="Your recovery codes" className="space-y-4 focus:outline-none">
        <p>Your account is ready.</p>
        <RecoveryCodeList codes={codes} />
        <Button
          variant="primary"
          size="md"
          block
          onClick={() => {
            router.push(safeCallback(callbackUrl));
            router.refresh();
          }}
        >
          I saved them: continue
        </Button>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Create account">
      <FormError message={errors.form} />
      <Field label="Username" name="username" autoComplete="username" required hint={USERNAME_RULES} error={errors.username} />
      <Field
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint="8–128 characters"
        error={errors.password}
      />
      <SubmitButton pending={pending}>Create account</SubmitButton>
      <p className="text-center text-sm text-muted">
        Already have an account?{' '}
        <Link className="link font-medium" href={`/signin${callbackUrl ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ''}`}>
          Sign in
        </Link>
      </p>
    </form>
  );
}
