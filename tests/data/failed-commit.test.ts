import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';

// A COMMIT that PostgreSQL refuses (here a deferred foreign key, checked only at commit) must reach
// the caller as a failed transaction: a write the database did not keep is never reported stored.
// Tables of its own, dropped after; both databases, since either driver could swallow it.
describe('a transaction whose COMMIT fails', () => {
  beforeAll(async () => {
    const db = await getDb();
    await db.$executeRawUnsafe('CREATE TABLE commit_parent (id int PRIMARY KEY)');
    await db.$executeRawUnsafe('CREATE TABLE commit_child (id int PRIMARY KEY, parent int REFERENCES commit_parent DEFERRABLE INITIALLY DEFERRED)');
  });
  afterAll(async () => {
    const db = await getDb();
    await db.$executeRawUnsafe('DROP TABLE IF EXISTS commit_child, commit_parent');
  });

  it('rejects, keeps nothing, and leaves the database usable', async () => {
    const db = await getDb();
    const stored = db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO commit_child VALUES (1, 99)');
      return 'stored';
    });
    await expect(stored).rejects.toThrow(/foreign ?key/i);
    expect(await db.$queryRawUnsafe('SELECT count(*)::int AS n FROM commit_child')).toEqual([{ n: 0 }]);
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO commit_parent VALUES (7)');
      await tx.$executeRawUnsafe('INSERT INTO commit_child VALUES (2, 7)');
    });
    expect(await db.$queryRawUnsafe('SELECT count(*)::int AS n FROM commit_child')).toEqual([{ n: 1 }]);
  });
});
