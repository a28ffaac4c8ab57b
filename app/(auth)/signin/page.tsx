import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/AuthCard';
import { OAuthButtons } from '@/components/auth/OAuthButtons';
import { SignInForm } from '@/components/auth/SignInForm';
import { safeCallback } from '@/components/auth/safe-callback';
import { enabledOAuthProviders, getSessionUser } from '@/lib/server/auth';

export const metadata: Metadata = { title: 'Sign in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  if (await getSessionUser()) redirect(safeCallback(callbackUrl));
  return (
    <AuthCard title="Sign in">
      <OAuthButtons providers={enabledOAuthProviders()} callbackUrl={callbackUrl} />
      <SignInForm callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
