'use client';

import { signIn } from 'next-auth/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { SIGN_IN_ERRORS, signInSchema, type SignInErrorCode } from '@/lib/validations/auth';
import { Field, FormError, SubmitButton } from '@/components/auth/Field';
import { safeCallback } from '@/components/auth/safe-callback';

type Errors = { username?: string; password?: string; form?: string };

export function SignInForm({ callbackUrl }: { callbackUrl?: string }) {
  const router = useRouter();
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = signInSchema.safeParse({ username: form.get('username'), password: form.get('password') });
    if (!parsed.success) {
      const field = parsed.error.issues[0]?.path[0];
      const message = parsed.error.issues[0]?.message;
      setErrors(field === 'password' ? { password: message } : { username: message });
      return;
    }
    setPending(true);
    setErrors({});
    const result = await signIn('credentials', { ...parsed.data, redirect: false });
    if (!result || result.error) {
      const code = (result?.error ?? '') as SignInErrorCode;
      setErrors({ form: SIGN_IN_ERRORS[code] ?? 'Sign-in failed. Please try again.' });
      setPending(false);
      return;
    }
    router.push(safeCallback(callbackUrl));
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Sign in">
      <FormError message={errors.form} />
      <Field label="Username" name="username" autoComplete="username" required error={errors.username} />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} />
      <SubmitButton pending={pending}>Sign in</SubmitButton>
      <p className="text-center text-sm">
        <Link className="link" href="/forgot-password">Forgot your password?</Link>
      </p>
      <p className="text-center text-sm text-muted">
        New here?{' '}
        <Link className="link font-medium" href={`/signup${callbackUrl ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : ''}`}>
          Create an account
        </Link>
      </p>
    </form>
  );
}
