// Fills a database with synthetic verified games for board benchmarks: players, tickets, games
// spread over 12 weeks and three modes, and the PersonalBest rows the boards read. Pure SQL
// (generate_series), identical on PGlite and PostgreSQL.
import type { SqlConnection } from '@/lib/db/connect.js';

export async function seedGames(sql: SqlConnection, options: { games: number; players: number; replay: string }) {
  const { games, players } = options;
  await sql.exec(`SELECT setseed(0.42)`);
  await sql.exec(`
    INSERT INTO "User" ("id", "username", "usernameKey", "createdAt", "updatedAt")
    SELECT 'benchuser' || lpad(i::text, 7, '0'), 'bench_' || i, 'bench_' || i, now(), now()
    FROM generate_series(1, ${players}) AS i`);
  await sql.exec(`
    INSERT INTO "GameTicket" ("id", "mode", "seed", "rulesVersion", "userId", "issuedAt", "expiresAt", "usedAt")
    SELECT 'benchgame' || lpad(i::text, 9, '0'), (ARRAY['sprint','marathon','ultra'])[1 + i % 3], md5(i::text), 1,
           'benchuser' || lpad((1 + (i::bigint * 7919) % ${players})::text, 7, '0'),
           now() - (i % 120960) * interval '1 minute', now(), now()
    FROM generate_series(1, ${games}) AS i`);
  await sql.query(
    `INSERT INTO "Game" ("id", "ticketId", "userId", "mode", "score", "lines", "level", "ticks", "pieces", "keys", "pps", "kpp",
                         "finished", "toppedOut", "replay", "replayDigest", "finalHash", "rulesVersion", "week", "createdAt")
     SELECT t."id", t."id", t."userId", t."mode",
            CASE WHEN t."mode" = 'sprint' THEN 5000 + (random() * 4000)::int ELSE (random() * 300000)::int END,
            CASE WHEN t."mode" = 'sprint' THEN 40 ELSE (random() * 150)::int END, 1,
            CASE WHEN t."mode" = 'sprint' THEN 1500 + (random() * 6000)::int ELSE 7200 END,
            100, 400, 1500, 4000, true, false, $1, md5(t."id"), 'bench', 1,
            to_char(t."issuedAt" AT TIME ZONE 'UTC', 'IYYY-"W"IW'), t."issuedAt"
     FROM "GameTicket" t WHERE t."id" LIKE 'benchgame%'`,
    [options.replay],
  );
  // The same rule as UPSERT_BEST (bests.ts): per player, mode and period, the lowest metric, earliest first.
  for (const [group, period] of [['', `'all'`], [', "week"', '"week"']]) {
    await sql.exec(`
      INSERT INTO "PersonalBest" ("userId", "mode", "period", "gameId", "metric", "achievedAt")
      SELECT DISTINCT ON ("userId", "mode"${group}) "userId", "mode", ${period}, "id",
             CASE WHEN "mode" = 'sprint' THEN "ticks" ELSE -"score" END, "createdAt"
      FROM "Game" WHERE "id" LIKE 'benchgame%'
      ORDER BY "userId", "mode"${group}, CASE WHEN "mode" = 'sprint' THEN "ticks" ELSE -"score" END, "createdAt", "id"`);
  }
  // What autovacuum does on a live database: statistics, and the visibility map that lets
  // rank counts run as index-only scans.
  await sql.exec('VACUUM ANALYZE');
}
