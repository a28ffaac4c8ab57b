import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { SpectatorScreen } from '@/components/live/SpectatorScreen';
import { idSchema } from '@/lib/validations/games';

export const metadata: Metadata = { title: 'Watching live' };

type Props = { params: Promise<{ gameId: string }> };

/** One live game as a spectator sees it; the game itself arrives over the live channel. */
export default async function WatchPage({ params }: Props) {
  const { gameId } = await params;
  if (!idSchema.safeParse(gameId).success) notFound();
  return <SpectatorScreen gameId={gameId} />;
}
