import type { Metadata } from 'next';
import { SettingsPage } from '@/components/settings/SettingsPage';
import { getSessionUser } from '@/lib/server/auth';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Settings' };

export default async function Page() {
  const user = await getSessionUser();
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <PageHeading>Settings</PageHeading>
      <p className="text-muted">
        {user ? 'Saved to your account and this device.' : 'Saved on this device. Sign in to keep them in your account on every device.'}
      </p>
      <SettingsPage signedIn={user !== null} />
    </div>
  );
}
