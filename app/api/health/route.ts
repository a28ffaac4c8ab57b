import { NextResponse } from 'next/server';
import { backupStatus } from '@/lib/db/backup/status';
import { getDb } from '@/lib/server/db';
import { loopDelay } from '@/lib/server/loop-delay';
import { route } from '@/lib/server/route';
import { verifyPoolLoad } from '@/lib/server/verify-pool';

export const dynamic = 'force-dynamic';

/**
 * Liveness for load balancers and the e2e harness: the server answers and the database too.
 * `backup` is for monitoring: when the last backup was taken and its size (the reason for a
 * failure is in the server log, not on this public page). `eventLoop`: how long the event loop was
 * held in the last whole 10-second window, and when the current one began (loop-delay.ts).
 * `verify`: the verification pool's jobs running and waiting, and its busy refusals and lost
 * workers since the process began (null before the pool exists: the server starts it at boot; decision 0021).
 */
export const GET = route(async () => {
  const db = await getDb();
  await db.$queryRaw`SELECT 1`;
  const { last, lastError, schedule } = backupStatus();
  return NextResponse.json({ ok: true, backup: { last, failedAt: lastError?.at ?? null, schedule }, eventLoop: loopDelay(), verify: verifyPoolLoad() });
});
