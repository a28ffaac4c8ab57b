import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { SignOutButton } from '@/components/auth/SignOutButton';
import { GameList } from '@/components/boards/GameList';
import { MODE_INFO, MODE_ORDER } from '@/lib/ui/modes';
import { formatDate } from '@/lib/ui/format';
import { BestChart } from '@/components/profile/BestChart';
import { PersonalBests } from '@/components/profile/PersonalBests';
import { getSessionUser } from '@/lib/server/auth';
import { getBestProgression } from '@/lib/server/games/progression';
import { getPlayerBests, listRecentGames } from '@/lib/server/games/replays';
import { getUserByUsername } from '@/lib/server/users';
import { usernameSchema } from '@/lib/validations/auth';

type Props = { params: Promise<{ username: string }> };

// Once per request, though both the metadata and the page ask.
const findPlayer = cache(async (username: string) => {
  const name = usernameSchema.safeParse(username);
  return name.success ? getUserByUsername({ username: name.data }) : null;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const profile = await findPlayer((await params).username);
  return { title: profile ? profile.username : 'Unknown player' };
}

export default async function PlayerPage({ params }: Props) {
  const profile = await findPlayer((await params).username);
  if (!profile) notFound();
  const own = (await getSessionUser())?.id === profile.id;
  const [bests, recent, progression] = await Promise.all([
    getPlayerBests({ userId: profile.id }),
    // Games held for review show only to their player, marked as such.
    listRecentGames({ userId: profile.id, includeHeld: own, limit: 20 }),
    getBestProgression({ userId: profile.id }),
  ]);
  return (
    <div className="space-y-8">
      <div className="flex items-center justify-between">
        <div>
          <h1 className="text-3xl font-bold" data-testid="profile-username">
            {profile.username}
          </h1>
          <p className="text-sm text-slate-500">Playing since {formatDate(profile.createdAt.toISOString())}</p>
        </div>
        {own ? <SignOutButton /> : null}
      </div>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Personal bests</h2>
        <PersonalBests bests={bests} own={own} />
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Progress</h2>
        <div className="grid gap-6 lg:grid-cols-3">
          {MODE_ORDER.map((mode) => (
            <div key={mode} className="space-y-1">
              <h3 className="text-sm text-slate-500">{MODE_INFO[mode].label}</h3>
              <BestChart mode={mode} points={progression[mode]} />
            </div>
          ))}
        </div>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Recent games</h2>
        <GameList games={recent} />
      </section>
    </div>
  );
}
