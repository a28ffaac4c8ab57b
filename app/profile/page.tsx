import { redirect } from 'next/navigation';
import { getSessionUser } from '@/lib/server/auth';
import { getUserProfile } from '@/lib/server/users';

/** The signed-in player's own profile lives at /u/{name}, like everyone else's. */
export default async function ProfilePage() {
  const session = await getSessionUser();
  if (!session) redirect('/signin?callbackUrl=/profile');
  const profile = await getUserProfile({ id: session.id });
  // A valid session for a deleted account: back to signing in.
  if (!profile) redirect('/signin?callbackUrl=/profile');
  redirect(`/u/${encodeURIComponent(profile.username)}`);
}
