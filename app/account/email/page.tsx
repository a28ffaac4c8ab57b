import type { Metadata } from 'next';
import { AuthCard } from '@/components/auth/AuthCard';
import { ConfirmEmailForm } from '@/components/account/RecoveryForms';

export const metadata: Metadata = { title: 'Confirm email', referrer: 'no-referrer' };

/** The mailed link lands here; a button confirms (mail scanners that follow links confirm nothing). */
export default async function ConfirmEmailPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return (
    <AuthCard title="Confirm your email">
      {typeof token === 'string' ? <ConfirmEmailForm token={token} /> : <p role="alert">This link is incomplete.</p>}
    </AuthCard>
  );
}
