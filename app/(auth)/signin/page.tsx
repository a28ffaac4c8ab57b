import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/AuthCard';
import { OAuthButtons } from '@/components/auth/OAuthButtons';
import { SignInForm } from '@/components/auth/SignInForm';
import { safeCallback } from '@/components/auth/safe-callback';
import { enabledOAuthProviders, getSessionUser } from '@/lib/server/auth';
import { SIGN_IN_ERRORS } from '@/lib/validations/auth';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  const { callbackUrl, error } = await searchParams;
  // Where next-auth sends a refused OAuth sign-in (auth.ts, callbacks.signIn).
  const refused = error === 'Banned' ? SIGN_IN_ERRORS.Banned : null;
  if (await getSessionUser()) redirect(safeCallback(callbackUrl));
  return (
    <AuthCard title="Sign in">
      {refused ? <p role="alert" className="text-sm text-danger">{refused}</p> : null}
      <OAuthButtons providers={enabledOAuthProviders()} callbackUrl={callbackUrl} />
      <SignInForm callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
