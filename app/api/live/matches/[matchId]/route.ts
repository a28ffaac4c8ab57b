import { NextResponse } from 'next/server';
import { apiError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';
import { getStoredMatch } from '@/lib/server/versus/match-record';
import { idSchema } from '@/lib/validations/games';

/** A live match once stored: seats, rating changes and every game's two replays (GET). */
export const GET = route(async (_request: Request, { params }: { params: Promise<{ matchId: string }> }) => {
  const limited = await enforce([{ rule: 'publicReadAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  const { matchId } = await params;
  const match = idSchema.safeParse(matchId).success ? await getStoredMatch({ matchId }) : null;
  if (!match) return apiError(404, 'match_not_found', 'No stored match has this id.');
  return NextResponse.json(match, { headers: { 'cache-control': 'public, max-age=3600, immutable' } });
});
