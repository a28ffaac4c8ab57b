import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { MatchSpectator } from '@/components/versus/MatchSpectator';
import { idSchema } from '@/lib/validations/games';

export const metadata: Metadata = { title: 'Watching a match' };

type Props = { params: Promise<{ matchId: string }> };

/** One live versus match as a spectator sees it; the match arrives over the live channel. */
export default async function WatchMatchPage({ params }: Props) {
  const { matchId } = await params;
  if (!idSchema.safeParse(matchId).success) notFound();
  return <MatchSpectator matchId={matchId} />;
}
