import { NextResponse } from 'next/server';
import { backupStatus } from '@/lib/db/backup/status';
import { getDb } from '@/lib/server/db';
import { takeLoopDelay } from '@/lib/server/loop-delay';
import { route } from '@/lib/server/route';
import { verifyPool } from '@/lib/server/verify-pool';

export const dynamic = 'force-dynamic';

/**
 * Liveness for load balancers and the e2e harness: the server answers and the database too.
 * `backup` is for monitoring: when the last backup was taken and its size (the reason for a
 * failure is in the server log, not on this public page). `eventLoop`: how long the event loop was
 * held since the previous health check (null on the first); `verify`: the verification pool's jobs.
 */
export const GET = route(async () => {
  const db = await getDb();
  await db.$queryRaw`SELECT 1`;
  const { last, lastError, schedule } = backupStatus();
  return NextResponse.json({ ok: true, backup: { last, failedAt: lastError?.at ?? null, schedule }, eventLoop: takeLoopDelay(), verify: verifyPool().load });
});
