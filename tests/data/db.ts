import { getDb } from '@/lib/server/db';

/** Empties every table (but the migration history) so each test starts from nothing. */
export async function resetDb(): Promise<void> {
  const db = await getDb();
  const tables = await db.$queryRawUnsafe<{ tablename: string }[]>(
    `SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
  );
  if (tables.length === 0) return;
  await db.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} CASCADE`);
}
