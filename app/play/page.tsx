import type { Metadata } from 'next';
import Link from 'next/link';
import { PendingNotice } from '@/components/game/PendingNotice';
import { MODE_INFO, PLAY_ORDER } from '@/lib/ui/modes';
import { PageHeading } from '@/components/ui/PageHeading';
import { buttonClass } from '@/components/ui/button-class';

export const metadata: Metadata = { title: 'Play' };

export default function PlayPage() {
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <PageHeading>Play</PageHeading>
          <p className="text-muted">Pick a mode. Every finished game is verified by the server before it reaches a board.</p>
        </div>
        <Link href="/settings" className={buttonClass({ variant: 'quiet' })}>
          Settings
        </Link>
      </div>
      <PendingNotice />
      <ul className="grid gap-4 sm:grid-cols-3">
        {PLAY_ORDER.map((mode) => (
          <li key={mode}>
            <Link
              href={`/play/${mode}`}
              className="block h-full rounded-xl border border-line p-5 transition-colors hover:border-primary hover:bg-highlight"
            >
              <h2 className="text-lg font-semibold">{MODE_INFO[mode].title}</h2>
              <p className="mt-1 text-sm text-muted">{MODE_INFO[mode].blurb}</p>
            </Link>
          </li>
        ))}
      </ul>
      <p className="text-sm text-muted">
        Practice any mode unranked, on this device alone (it works offline):{' '}
        {PLAY_ORDER.map((mode, i) => (
          <span key={mode}>
            {i > 0 && ' · '}
            <Link className="link" href={`/play/${mode}?practice`}>{MODE_INFO[mode].title}</Link>
          </span>
        ))}
      </p>
      <p className="text-sm text-muted">
        Against an opponent: <Link className="link" href="/versus">Versus</Link>, a quick match, a private room with a friend, or the sparring bot at the pace you pick.
      </p>
    </div>
  );
}
