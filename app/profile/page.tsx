import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound, redirect } from 'next/navigation';
import { SignOutButton } from '@/components/auth/SignOutButton';
import { GameList } from '@/components/boards/GameList';
import { MODE_LABELS, formatResult } from '@/components/boards/result';
import { MODE_NAMES } from '@/lib/engine';
import { getSessionUser } from '@/lib/server/auth';
import { getPlayerBests, listRecentGames } from '@/lib/server/games/replays';
import { getUserProfile } from '@/lib/server/users';

export const metadata: Metadata = { title: 'Profile' };

export default async function ProfilePage() {
  const session = await getSessionUser();
  if (!session) redirect('/signin?callbackUrl=/profile');
  const [profile, bests, recent] = await Promise.all([
    getUserProfile({ id: session.id }),
    getPlayerBests({ userId: session.id }),
    listRecentGames({ userId: session.id, limit: 20 }),
  ]);
  // A valid session for a deleted account: treat as unknown.
  if (!profile) notFound();
  return (
    <div className="space-y-8">
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-3xl font-bold" data-testid="profile-username">
            {profile.username}
          </h1>
          <p className="text-sm text-slate-500">Playing since {profile.createdAt.toISOString().slice(0, 10)}</p>
        </div>
        <SignOutButton />
      </div>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Personal bests</h2>
        <div className="grid gap-4 sm:grid-cols-3" data-testid="personal-bests">
          {MODE_NAMES.map((mode) => {
            const best = bests.find((b) => b.mode === mode);
            return (
              <div key={mode} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                <p className="text-sm text-slate-500">{MODE_LABELS[mode]}</p>
                {best ? (
                  <Link href={`/replays/${best.id}`} className="font-mono text-2xl font-semibold hover:underline">
                    {formatResult(mode, best)}
                  </Link>
                ) : (
                  <Link href={`/play/${mode}`} className="text-cyan-600 hover:underline dark:text-cyan-400">
                    Play your first
                  </Link>
                )}
              </div>
            );
          })}
        </div>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Recent games</h2>
        <GameList games={recent} />
      </section>
    </div>
  );
}
