import Link from 'next/link';
import { WeeklyTop } from '@/components/boards/WeeklyTop';
import { DeletedNotice } from '@/components/account/DeletedNotice';
import { LiveNow } from '@/components/live/LiveNow';
import { PersonalBests } from '@/components/profile/PersonalBests';
import { getSessionUser } from '@/lib/server/auth';
import { getWeeklyTop } from '@/lib/server/games/highlights';
import { getPlayerBests } from '@/lib/server/games/replays';
import { MODE_INFO, PLAY_ORDER } from '@/lib/ui/modes';
import { buttonClass } from '@/components/ui/button-class';

export default async function HomePage() {
  const user = await getSessionUser();
  const [weekly, bests] = await Promise.all([getWeeklyTop({ limit: 3 }), user ? getPlayerBests({ userId: user.id }) : null]);
  return (
    <div className="space-y-12">
      {/* Where account deletion lands (components/account/AccountForms.tsx), signed out. */}
      {!user && <DeletedNotice />}
      <section className="space-y-4 pt-6">
        {/* The landing page's hero, larger than a PageHeading on purpose: it is the site's first words, not a page's title. */}
        <h1 className="text-4xl font-bold tracking-tight sm:text-5xl">Stack. Clear. Prove it.</h1>
        <p className="max-w-2xl text-lg text-muted">
          Linefall is the modern falling-block puzzle game in your browser: seven tetrominoes, SRS rotation, hold, a
          7-bag and the handling settings competitive players expect. Every score on our leaderboards is proven — the
          server replays your inputs through the same deterministic engine before it is stored.
        </p>
        <div className="flex gap-3">
          <Link href="/play" className={buttonClass({ variant: 'primary', size: 'lg' })}>
            Play now
          </Link>
          <Link href="/leaderboards" className={buttonClass({ size: 'lg' })}>
            Leaderboards
          </Link>
        </div>
      </section>
      {bests ? (
        <section className="space-y-3">
          <h2 className="text-xl font-semibold">Your personal bests</h2>
          <PersonalBests bests={bests} own />
        </section>
      ) : null}
      <section className="space-y-3">
        <div className="flex items-baseline justify-between gap-2">
          <h2 className="text-xl font-semibold">Live now</h2>
          <Link href="/live" className="link text-sm">All live games</Link>
        </div>
        <LiveNow limit={5} />
      </section>
      <section className="space-y-3">
        <h2 className="text-xl font-semibold">This week&apos;s best</h2>
        <WeeklyTop boards={weekly} />
      </section>
      <section className="grid gap-4 sm:grid-cols-3">
        {PLAY_ORDER.map((mode) => (
          <Link key={mode} href={`/play/${mode}`} className="rounded-xl border border-line p-5 hover:border-primary">
            <h2 className="font-semibold">{MODE_INFO[mode].title}</h2>
            <p className="mt-1 text-sm text-muted">{MODE_INFO[mode].blurb}</p>
          </Link>
        ))}
      </section>
    </div>
  );
}
