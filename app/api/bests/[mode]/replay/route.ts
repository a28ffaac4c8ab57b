import { NextResponse } from 'next/server';
import { getSessionUser } from '@/lib/server/auth';
import { getBestReplay } from '@/lib/server/games/best-replay';
import { apiError, validationError } from '@/lib/server/http';
import { route } from '@/lib/server/route';
import { modeSchema } from '@/lib/validations/games';

/** The signed-in player's best game in a mode, replay included: the ghost on the play page races it. */
export const GET = route(async (_request: Request, { params }: { params: Promise<{ mode: string }> }) => {
  const mode = modeSchema.safeParse((await params).mode);
  if (!mode.success) return validationError(mode.error);
  const user = await getSessionUser();
  if (!user) return apiError(401, 'unauthenticated', 'Sign in to race your best.');
  const best = await getBestReplay({ userId: user.id, mode: mode.data });
  if (!best) return apiError(404, 'no_best', 'You have no best game in this mode yet.');
  return NextResponse.json(best, { headers: { 'cache-control': 'private, no-store' } });
});
