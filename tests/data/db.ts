import { getDb } from '@/lib/server/db';
import { boardsChanged } from '@/lib/server/games/board-cache';
import { backgroundCleanup } from '@/lib/server/games/cleanup';
import { integritySettled } from '@/lib/server/integrity/record';
import { storesSettled } from '@/lib/server/live/match/match-store';

/**
 * Empties every table (but the migration history) so each test starts from nothing. A cleanup
 * an earlier test's ticket started in the background, the matches and sets an earlier test ended
 * (a clock run on an hour lags dozens out), and the feature rows of its games are waited for
 * first: they would otherwise delete or write rows under the next test, or deadlock its TRUNCATE.
 */
export async function resetDb(): Promise<void> {
  await storesSettled();
  await backgroundCleanup();
  await integritySettled();
  const db = await getDb();
  const tables = await db.$queryRawUnsafe<{ tablename: string }[]>(
    `SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length === 0) return;
  await db.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} CASCADE`);
  // Boards kept from the test before are of rows gone now.
  boardsChanged();
}
