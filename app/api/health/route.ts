import { NextResponse } from 'next/server';
import { backupStatus } from '@/lib/db/backup/status';
import { getDb } from '@/lib/server/db';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

/**
 * Liveness for load balancers and the e2e harness: the server answers and the database too.
 * `backup` is for monitoring: when the last backup was taken and its size (the reason for a
 * failure is in the server log, not on this public page).
 */
export const GET = route(async () => {
  const db = await getDb();
  await db.$queryRaw`SELECT 1`;
  const { last, lastError, schedule } = backupStatus();
  return NextResponse.json({ ok: true, backup: { last, failedAt: lastError?.at ?? null, schedule } });
});
