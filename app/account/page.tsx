import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AccountForms } from '@/components/account/AccountForms';
import { accountOverview } from '@/lib/server/account/overview';
import { RECENT_SIGN_IN_MS } from '@/lib/server/account/password';
import { enabledOAuthProviders, getSessionUser } from '@/lib/server/auth';
import { mailConfigured } from '@/lib/server/mail';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Account' };

export default async function AccountPage() {
  const user = await getSessionUser({ fresh: true });
  if (!user) redirect('/signin?callbackUrl=/account');
  const overview = await accountOverview({ userId: user.id });
  if (!overview) redirect('/signin?callbackUrl=/account');
  const { banReason, linkedProviders, ...account } = overview;
  const providers = enabledOAuthProviders().filter((p) => linkedProviders.includes(p.id));
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeading>Account</PageHeading>
      {banReason !== null ? (
        <p role="alert" className="rounded-lg bg-danger-bg px-4 py-3 text-on-danger-bg">
          A moderator banned this account from ranked play: {banReason || 'no reason given'}. Your games are off the leaderboards. You can still download your data or delete the account.
        </p>
      ) : null}
      <AccountForms account={{ ...account, providers, recentSignInMinutes: RECENT_SIGN_IN_MS / 60_000, mail: mailConfigured() }} />
    </div>
  );
}
