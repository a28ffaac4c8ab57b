import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PlayScreen } from '@/components/game/PlayScreen';
import { isMode, PLAY_MODES } from '@/lib/ui/modes';
import { getSessionUser } from '@/lib/server/auth';

type Props = { params: Promise<{ mode: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { mode } = await params;
  return { title: PLAY_MODES.find((m) => m.mode === mode)?.title ?? 'Play' };
}

export default async function PlayModePage({ params }: Props) {
  const { mode } = await params;
  if (!isMode(mode)) notFound();
  const user = await getSessionUser();
  const title = PLAY_MODES.find((m) => m.mode === mode)?.title ?? mode;
  return <PlayScreen mode={mode} title={title} signedIn={user !== null} />;
}
