import { NextResponse } from 'next/server';
import { apiError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';
import { getStoredRoomSet } from '@/lib/server/versus/room-sets';
import { matchIdSchema } from '@/lib/validations/versus';

export const GET = route(async (_request: Request, { params }: { params: Promise<{ matchId: string }> }) => {
  const limited = await enforce([{ rule: 'publicReadAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  const { matchId } = await params;
  const set = matchIdSchema.safeParse(matchId).success ? await getStoredRoomSet({ matchId }) : null;
  if (!set) return apiError(404, 'room_set_not_found', 'No stored room set has this id.');
  // Final once stored, but a deleted account's seat then reads as deleted.
  return NextResponse.json(set, { headers: { 'cache-control': 'public, max-age=60' } });
});
