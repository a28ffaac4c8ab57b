import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { VersusScreen } from '@/components/versus/VersusScreen';
import { getSessionUser } from '@/lib/server/auth';
import { roomCodeSchema } from '@/lib/live/protocol';

export const metadata: Metadata = { title: 'Versus room' };

type Props = { params: Promise<{ code: string }> };

/** A private room's share link: opening it joins the room. */
export default async function RoomPage({ params }: Props) {
  const { code } = await params;
  if (!roomCodeSchema.safeParse(code).success) notFound();
  const user = await getSessionUser();
  return <VersusScreen signedIn={user !== null} room={code} />;
}
