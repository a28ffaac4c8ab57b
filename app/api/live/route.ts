import { NextResponse } from 'next/server';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { liveGames, liveMatches } from '@/lib/server/live/registry';
import { route } from '@/lib/server/route';

/**
 * The games and versus matches being played live now (GET). The same path upgraded to a WebSocket is the live
 * channel itself, handled by scripts/serve.mjs before Next sees the request.
 */
export const GET = route(async () => {
  const limited = await enforce([{ rule: 'publicReadAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  return NextResponse.json({ games: liveGames(), matches: liveMatches() }, { headers: { 'cache-control': 'no-store' } });
});

export const dynamic = 'force-dynamic';
