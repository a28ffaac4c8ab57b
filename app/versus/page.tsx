import type { Metadata } from 'next';
import { VersusScreen } from '@/components/versus/VersusScreen';
import { getSessionUser } from '@/lib/server/auth';

export const metadata: Metadata = { title: 'Versus' };

/** Quick match and private rooms; the match itself is played on this page over the live channel. */
export default async function VersusPage() {
  const user = await getSessionUser();
  return <VersusScreen signedIn={user !== null} room={null} />;
}
