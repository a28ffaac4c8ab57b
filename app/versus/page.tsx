import type { Metadata } from 'next';
import { TeamQueueControl } from '@/components/versus/TeamQueueControl';
import { VersusScreen } from '@/components/versus/VersusScreen';
import { getSessionUser } from '@/lib/server/auth';
import { getVersusStandings } from '@/lib/server/versus/boards';

export const metadata: Metadata = { title: 'Versus' };

/**
 * Quick match and private rooms; the match itself is played on this page over the live channel.
 * A signed-in player's lobby shows their rating per mode as it stands now (placement, or a "?").
 */
export default async function VersusPage() {
  const user = await getSessionUser();
  const standings = user ? await getVersusStandings({ userId: user.id }) : null;
  return (
    <>
      <VersusScreen signedIn={user !== null} room={null} standings={standings} />
      {/* Ranked 2v2 is for accounts: a guest's queue would be refused. */}
      {user ? <TeamQueueControl /> : null}
    </>
  );
}
