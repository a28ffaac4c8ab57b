import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { SignOutButton } from '@/components/auth/SignOutButton';
import { getSessionUser } from '@/lib/server/auth';
import { getUserProfile } from '@/lib/server/users';

export const metadata: Metadata = { title: 'Profile' };

export default async function ProfilePage() {
  const session = await getSessionUser();
  if (!session) redirect('/signin?callbackUrl=/profile');
  const profile = await getUserProfile({ id: session.id });
  // A valid session for a deleted account: treat as unknown.
  if (!profile) notFound();
  return (
    <div className="space-y-6">
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-3xl font-bold" data-testid="profile-username">
            {profile.username}
          </h1>
          <p className="text-sm text-slate-500">Playing since {profile.createdAt.toISOString().slice(0, 10)}</p>
        </div>
        <SignOutButton />
      </div>
    </div>
  );
}
