import { NextResponse } from 'next/server';
import { getReplay } from '@/lib/server/games/replays';
import { apiError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';
import { idSchema } from '@/lib/validations/games';

export const GET = route(async (_request: Request, { params }: { params: Promise<{ gameId: string }> }) => {
  const limited = await enforce([{ rule: 'publicReadAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  const { gameId } = await params;
  const record = idSchema.safeParse(gameId).success ? await getReplay({ gameId }) : null;
  if (!record) return apiError(404, 'replay_not_found', 'No stored game has this id.');
  // A verified game never changes once it has its player and is on the boards; a guest's may be
  // claimed or expire, a held one is still to be reviewed, and a rejected one may be approved.
  // `status` says which of verified, awaiting_review or rejected it is.
  const { unsettled, ...body } = record;
  const cache = unsettled ? 'no-store' : 'public, max-age=3600, immutable';
  return NextResponse.json(body, { headers: { 'cache-control': cache } });
});
