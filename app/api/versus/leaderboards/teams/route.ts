import { NextResponse } from 'next/server';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';
import { getTeamBoard } from '@/lib/server/versus/team-boards';

/** The ranked 2v2 board's first hundred, as its page shows them (beside the 1v1 modes' [mode] route). */
export const GET = route(async () => {
  const limited = await enforce([{ rule: 'publicReadAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  return NextResponse.json({ rows: await getTeamBoard({ limit: 100 }) }, { headers: { 'cache-control': 'no-store' } });
});
