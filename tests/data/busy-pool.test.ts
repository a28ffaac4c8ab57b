import { describe, expect, it } from 'vitest';
import { POOL_SIZE } from '@/lib/db/adapter';
import { isDbUnavailable } from '@/lib/db/errors';
import { regenerateRecoveryCodes } from '@/lib/server/account/recovery';
import { getDb } from '@/lib/server/db';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';

// A burst (a hundred sign-ups at once) can hold every connection for a few seconds. A transaction
// then waits for one as long as a single query does, instead of failing after Prisma's default 2 s
// with an error the API answered as a 500; and when a wait does run out, it is "busy" (503, retry).
const pglite = (process.env.DATABASE_URL ?? '').startsWith('pglite');

describe('a busy database', () => {
  it('lets a transaction wait for a connection while every one is held for 3 s', async () => {
    await resetDb();
    const { userId } = await player('burst');
    const db = await getDb();
    const held = pglite ? 1 : POOL_SIZE;
    const holders = Array.from({ length: held }, () => db.$transaction(async (tx) => tx.$executeRawUnsafe('SELECT pg_sleep(3)'), { timeout: 10_000 }));
    await new Promise((r) => setTimeout(r, 300));
    const codes = await regenerateRecoveryCodes({ userId: userId! }).catch((error: unknown) => error);
    await Promise.all(holders);
    expect(codes).toHaveLength(10);
  });

  // PGlite's adapter queues transactions on its one connection with no deadline: nothing runs out.
  it.skipIf(pglite)('is "unavailable" (503, try again) when a transaction found no connection in time', async () => {
    const db = await getDb();
    const holder = db.$transaction(async (tx) => tx.$executeRawUnsafe('SELECT pg_sleep(1.5)'), { timeout: 10_000 });
    const held = [holder, ...Array.from({ length: POOL_SIZE - 1 }, () => db.$transaction(async (tx) => tx.$executeRawUnsafe('SELECT pg_sleep(1.5)'), { timeout: 10_000 }))];
    await new Promise((r) => setTimeout(r, 200));
    const error = await db.$transaction(async (tx) => tx.$executeRawUnsafe('SELECT 1'), { maxWait: 100 }).then(() => null, (e: unknown) => e);
    await Promise.all(held);
    expect(error).not.toBeNull();
    expect(isDbUnavailable(error)).toBe(true);
  });
});
