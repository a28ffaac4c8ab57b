import type { Metadata } from 'next';
import { RoomScreen } from '@/components/rooms/RoomScreen';
import { getSessionUser } from '@/lib/server/auth';

export const metadata: Metadata = { title: 'Rooms' };

/** Rooms of 2–16: make one (rules, bots) or join one by code; the set is played on this page. */
export default async function RoomsPage() {
  const user = await getSessionUser();
  return <RoomScreen signedIn={user !== null} code={null} />;
}
