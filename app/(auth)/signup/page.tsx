import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/AuthCard';
import { OAuthButtons } from '@/components/auth/OAuthButtons';
import { SignUpForm } from '@/components/auth/SignUpForm';
import { safeCallback } from '@/components/auth/safe-callback';
import { enabledOAuthProviders, getSessionUser } from '@/lib/server/auth';

export const metadata: Metadata = { title: 'Create account' };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl } = await searchParams;
  if (await getSessionUser()) redirect(safeCallback(callbackUrl));
  return (
    <AuthCard title="Create account">
      <OAuthButtons providers={enabledOAuthProviders()} callbackUrl={callbackUrl} />
      <SignUpForm callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
