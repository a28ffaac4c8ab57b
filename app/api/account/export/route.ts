import { NextResponse } from 'next/server';
import { exportAccount } from '@/lib/server/account/export';
import { requirePlayer } from '@/lib/server/guards';
import { route } from '@/lib/server/route';

/** Everything stored about the signed-in player, as one JSON file to download. */
export const GET = route(async () => {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded.response;
  const data = await exportAccount({ userId: guarded.user.id });
  const name = `linefall-${guarded.user.name}-${data.exportedAt.slice(0, 10)}.json`;
  return new NextResponse(JSON.stringify(data, null, 2), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store' },
  });
});
