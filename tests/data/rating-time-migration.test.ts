import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, inject, it } from 'vitest';
import { openSql, type SqlConnection } from '@/lib/db/connect.js';
import { applyMigrations, MIGRATIONS_DIR } from '@/lib/db/migrate.js';
import { adminPostgresUrl, throwawayName, withDatabase } from '@/tests/support/postgres';

// The migration that gave ratings their idle clock and seats their placement count, run over
// rows written before it, on a database of its own (the run's shared one is already migrated).
const MIGRATION = '20261126063431_rating_time';
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const done of cleanups.reverse()) await done();
});

async function freshDatabase(): Promise<SqlConnection> {
  if (inject('databaseUrl').startsWith('pglite:')) {
    const sql = await openSql({ kind: 'pglite', dataDir: null });
    cleanups.push(() => sql.close());
    return sql;
  }
  const admin = await openSql({ kind: 'postgres', url: adminPostgresUrl() });
  const name = throwawayName('linefall_migration');
  await admin.exec(`CREATE DATABASE "${name}"`);
  const sql = await openSql({ kind: 'postgres', url: withDatabase(adminPostgresUrl(), name) });
  cleanups.push(async () => {
    await sql.close();
    await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.close();
  });
  return sql;
}

it('backfills each ranked seat’s rated matches before it and each rating’s last rated match', async () => {
  const sql = await freshDatabase();
  const before = mkdtempSync(path.join(tmpdir(), 'linefall-migrations-'));
  cleanups.push(async () => rmSync(before, { recursive: true, force: true }));
  for (const name of readdirSync(MIGRATIONS_DIR)) if (name < MIGRATION) cpSync(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
  await applyMigrations(sql, { dir: before });

  const day = (n: number) => `2026-11-${String(10 + n).padStart(2, '0')} 12:00:00`;
  await sql.exec(`INSERT INTO "User" ("id", "username", "usernameKey", "updatedAt") VALUES ('ann', 'ann', 'ann', now()), ('ben', 'ben', 'ben', now())`);
  // Ann's battle history, oldest first: m1 rated for both; m2 no contest, Ann won (not rated for
  // her); m3 voided on day 5, after m4 was played; m5 unranked; m6 rated. Ben: a race30 match.
  const matches: Array<[string, string, boolean, boolean, string | null, number, boolean]> = [
    // id, mode, ranked, noContest, voidedAt, day, Ann won
    ['m1', 'battle', true, false, null, 1, true],
    ['m2', 'battle', true, true, null, 2, true],
    ['m3', 'battle', true, false, day(5), 3, false],
    ['m4', 'battle', true, false, null, 4, false],
    ['m5', 'battle', false, false, null, 6, true],
    ['m6', 'battle', true, false, null, 7, true],
  ];
  for (const [id, mode, ranked, noContest, voidedAt, d, annWon] of matches) {
    await sql.exec(`INSERT INTO "VersusMatch" ("id", "mode", "ranked", "firstTo", "seed", "rulesVersion", "winnerSeat", "endReason", "noContest", "voidedAt", "week", "createdAt")
      VALUES ('${id}', '${mode}', ${ranked}, 2, 's', 6, ${annWon ? 0 : 1}, 'games', ${noContest}, ${voidedAt ? `'${voidedAt}'` : 'NULL'}, '2026-W46', '${day(d)}')`);
    const r = ranked ? '1500, 200, 1510, 190' : 'NULL, NULL, NULL, NULL';
    await sql.exec(`INSERT INTO "VersusSeat" ("matchId", "seat", "userId", "gamesWon", "won", "ratingBefore", "rdBefore", "ratingAfter", "rdAfter", "createdAt")
      VALUES ('${id}', 0, 'ann', 2, ${annWon}, ${r}, '${day(d)}'), ('${id}', 1, 'ben', 1, ${!annWon}, ${r}, '${day(d)}')`);
  }
  await sql.exec(`INSERT INTO "VersusRating" ("userId", "mode", "rating", "rd", "vol", "matches", "wins", "updatedAt") VALUES
    ('ann', 'battle', 1510, 190, 0.06, 3, 1, '${day(9)}'),
    ('ben', 'battle', 1490, 190, 0.06, 4, 1, '${day(9)}'),
    ('ben', 'race30', 1500, 350, 0.06, 0, 0, '${day(8)}')`);

  await applyMigrations(sql);
  const seats = (await sql.query(`SELECT "matchId", "userId", "matchesBefore" FROM "VersusSeat" ORDER BY "matchId", "seat"`)).rows;
  const count = (m: string, u: string) => seats.find((s) => s.matchId === m && s.userId === u)?.matchesBefore;
  // Ann: m1 counts; m2 does not (her no-contest win); m3 counts for m4 (voided after it), not for m6.
  expect(['m1', 'm2', 'm3', 'm4', 'm5', 'm6'].map((m) => count(m, 'ann'))).toEqual([0, 1, 1, 2, null, 2]);
  // Ben lost m2 as the leaver: it counts for him.
  expect(['m1', 'm2', 'm3', 'm4', 'm5', 'm6'].map((m) => count(m, 'ben'))).toEqual([0, 1, 2, 3, null, 3]);
  const rated = (await sql.query(`SELECT "userId", "mode", to_char("ratedAt", 'YYYY-MM-DD HH24:MI:SS') AS "at" FROM "VersusRating" ORDER BY "userId", "mode"`)).rows;
  expect(rated).toEqual([
    { userId: 'ann', mode: 'battle', at: day(7) },
    { userId: 'ben', mode: 'battle', at: day(7) },
    // No rated match left to date it: its last write.
    { userId: 'ben', mode: 'race30', at: day(8) },
  ]);
});
