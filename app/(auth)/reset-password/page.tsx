import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/auth/AuthCard';
import { ResetPasswordForm } from '@/components/account/RecoveryForms';

export const metadata: Metadata = { title: 'Set a new password', referrer: 'no-referrer' };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return (
    <AuthCard title="Set a new password">
      {typeof token === 'string' && token ? (
        <ResetPasswordForm token={token} />
      ) : (
        <p role="alert">This link is incomplete. <Link className="link" href="/forgot-password">Ask for a new one</Link>.</p>
      )}
    </AuthCard>
  );
}
