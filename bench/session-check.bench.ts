// `npm run bench:session-check -- [--db=pglite|postgres]`: what checking a JWT session's version
// costs per request (docs/decisions/0013): a fresh read of the player's row (writes, account and
// moderation pages) against the 10-second per-process cache (every other read, boards included).
// Medians of 5 rounds of 2,000 checks each, on a database with 1,000 players.
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { throwawayDatabase } from '@/tests/support/postgres';

const kind = process.argv.find((a) => a.startsWith('--db='))?.split('=')[1] ?? 'pglite';
const pg = kind === 'postgres' ? await throwawayDatabase('bench_session') : null;
if (pg) {
  const sql = await openSql({ kind: 'postgres', url: pg.url });
  await applyMigrations(sql);
  await sql.close();
}
process.env.DATABASE_URL = pg?.url ?? 'pglite:memory';
const { sessionState } = await import('@/lib/server/account/sessions');
const { getDb } = await import('@/lib/server/db');

const db = await getDb();
await db.user.createMany({ data: Array.from({ length: 1000 }, (_, i) => ({ username: `bench${i}`, usernameKey: `bench${i}` })) });
const ids = (await db.user.findMany({ select: { id: true } })).map((u) => u.id);
const N = 2000;

async function round(fresh: boolean): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await sessionState({ userId: ids[i % ids.length]!, fresh });
  return Number(process.hrtime.bigint() - start) / 1e3 / N;
}
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fresh: number[] = [];
const cached: number[] = [];
for (let r = 0; r < 5; r++) {
  fresh.push(await round(true));
  cached.push(await round(false));
}
console.log(`${kind}: fresh read ${median(fresh).toFixed(1)} µs per check, cached ${median(cached).toFixed(2)} µs per check (median of 5 × ${N})`);
await db.$disconnect();
await pg?.drop();
