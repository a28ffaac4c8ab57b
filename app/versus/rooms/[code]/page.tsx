import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RoomScreen } from '@/components/rooms/RoomScreen';
import { getSessionUser } from '@/lib/server/auth';
import { roomCodeSchema } from '@/lib/live/protocol';

export const metadata: Metadata = { title: 'Room' };

type Props = { params: Promise<{ code: string }>; searchParams: Promise<{ watch?: string }> };

/** A room's share link: opening it joins the room, or watches it while it plays (`?watch=1`: watch at once). */
export default async function RoomPage({ params, searchParams }: Props) {
  const { code } = await params;
  if (!roomCodeSchema.safeParse(code).success) notFound();
  const { watch } = await searchParams;
  const user = await getSessionUser();
  return <RoomScreen signedIn={user !== null} code={code} watch={watch === '1'} />;
}
