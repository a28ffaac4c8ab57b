import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PlayScreen } from '@/components/game/PlayScreen';
import { isRanked, MODES } from '@/lib/engine';
import { PERIOD_IDS, PERIODS } from '@/lib/periods';
import { MODE_INFO, isMode, racesAgainstBest } from '@/lib/ui/modes';
import { getSessionUser } from '@/lib/server/auth';

type Props = { params: Promise<{ mode: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { mode } = await params;
  return { title: isMode(mode) ? MODE_INFO[mode].title : 'Play' };
}

export default async function PlayModePage({ params, searchParams }: Props) {
  const { mode } = await params;
  if (!isMode(mode)) notFound();
  // `?practice`: the same game unranked, on a local seed (see lib/client/practice.ts). A mode that
  // is never ranked (Zen) is always played so: no ticket, nothing sent, no board.
  const practice = (await searchParams).practice !== undefined || !isRanked(mode);
  const user = await getSessionUser();
  return (
    <PlayScreen
      mode={mode}
      title={MODE_INFO[mode].title}
      signedIn={user !== null}
      ranking={{ rankBy: MODES[mode].rankBy, needsFinish: MODES[mode].needsFinish }}
      ghost={!practice && user !== null && racesAgainstBest(mode)}
      practice={practice}
      ranked={isRanked(mode)}
      periods={PERIOD_IDS.map((id) => ({ id, tab: PERIODS[id].tab }))}
    />
  );
}
