import 'server-only';
import { getDb } from '@/lib/server/db';

/** How many games a player forfeited per mode by starting another (tickets.ts), for the profile. */
export async function getAbandonCounts(options: { userId: string }): Promise<{ mode: string; count: number }[]> {
  const db = await getDb();
  return db.abandonCount.findMany({ where: { userId: options.userId, count: { gt: 0 } }, select: { mode: true, count: true }, orderBy: { mode: 'asc' } });
}
