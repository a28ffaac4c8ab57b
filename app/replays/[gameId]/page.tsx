import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { MODE_INFO, formatResult } from '@/lib/ui/modes';
import { formatDate, formatRate } from '@/lib/ui/format';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { DownloadReplay } from '@/components/replay/DownloadReplay';
import { ReplayStatusNote } from '@/components/replay/ReplayStatusNote';
import { ReplayViewer } from '@/components/replay/ReplayViewer';
import { boardHref, ticksFromParam } from '@/lib/ui/links';
import { ReportButton } from '@/components/moderation/ReportButton';
import { getSessionUser } from '@/lib/server/auth';
import { getReplay } from '@/lib/server/games/replays';
import { idSchema } from '@/lib/validations/games';
import { PageHeading } from '@/components/ui/PageHeading';

type Props = { params: Promise<{ gameId: string }>; searchParams: Promise<{ t?: string | string[] }> };

// Once per request, though both the metadata and the page ask (it carries the whole replay).
const findReplay = cache(async (gameId: string) => (idSchema.safeParse(gameId).success ? getReplay({ gameId }) : null));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const record = await findReplay((await params).gameId);
  return { title: record ? `${record.game.player?.username ?? 'Guest'} · ${MODE_INFO[record.game.mode].label} replay` : 'Replay' };
}

export default async function ReplayPage({ params, searchParams }: Props) {
  const { t } = await searchParams;
  const record = await findReplay((await params).gameId);
  if (!record) notFound();
  const { game } = record;
  // Signed-in players can report someone else's game.
  const viewer = game.player ? await getSessionUser() : null;
  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <PageHeading size="compact">
          {game.player ? <PlayerLink username={game.player.username} /> : 'Guest'} · {MODE_INFO[game.mode].label} · <span className="font-mono">{formatResult(game.mode, game)}</span>
        </PageHeading>
        <p className="text-sm text-muted">
          {game.lines} lines · {game.pieces} pieces · {formatRate(game.pps)} PPS · {formatRate(game.kpp)} KPP · {formatDate(game.createdAt)} ·{' '}
          <ReplayStatusNote status={record.status} />
        </p>
      </header>
      <ReplayViewer encoded={record.replay} path={`/replays/${game.id}`} startAt={ticksFromParam(typeof t === 'string' ? t : undefined)} gameId={game.id} />
      <div className="flex flex-wrap items-center gap-4">
        <DownloadReplay encoded={record.replay} gameId={game.id} mode={game.mode} player={game.player?.username ?? null} createdAt={game.createdAt} />
        <Link href="/replays/open" className="link text-sm">Open a replay file</Link>
        {viewer && game.player && viewer.name !== game.player.username ? <ReportButton gameId={game.id} /> : null}
        <Link href={boardHref({ mode: game.mode })} className="link text-sm">
          ← {MODE_INFO[game.mode].label} leaderboard
        </Link>
      </div>
    </div>
  );
}
