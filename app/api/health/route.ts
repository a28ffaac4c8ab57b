import { NextResponse } from 'next/server';
import { getDb } from '@/lib/server/db';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

/** Liveness for load balancers and the e2e harness: the server answers and the database too. */
export const GET = route(async () => {
  const db = await getDb();
  await db.$queryRaw`SELECT 1`;
  return NextResponse.json({ ok: true });
});
