import type { Metadata } from 'next';
import { AuthCard } from '@/components/auth/AuthCard';
import { ForgotByEmailForm, RecoveryCodeForm } from '@/components/account/RecoveryForms';
import { mailConfigured } from '@/lib/server/mail';

export const metadata: Metadata = { title: 'Forgot password' };

export default function ForgotPasswordPage() {
  return (
    <AuthCard title="Forgot your password?">
      {mailConfigured() ? (
        <>
          <ForgotByEmailForm />
          <h2 className="pt-4 text-base font-semibold">Or use a recovery code</h2>
        </>
      ) : (
        <p className="text-sm text-muted">Use one of the recovery codes you saved when you signed up (or made on your account page).</p>
      )}
      <RecoveryCodeForm />
    </AuthCard>
  );
}
