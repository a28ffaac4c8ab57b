import { createReadStream, createWriteStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { listTables, tableDigests, tablesWithRows } from '@/lib/db/backup/catalog.js';
import { inspectBackup } from '@/lib/db/backup/inspect.js';
import { backupLive } from '@/lib/db/backup/live';
import { restoreBackup, RestoreRefusedError } from '@/lib/db/backup/restore.js';
import { runScheduledBackup } from '@/lib/db/backup/schedule';
import { withPgliteSnapshot, withPostgresSnapshot } from '@/lib/db/backup/snapshot.js';
import { backupStatus } from '@/lib/db/backup/status';
import { integritySettled } from '@/lib/server/integrity/record';
import { openSql } from '@/lib/db/connect.js';
import { liveDbHandle } from '@/lib/db/live';
import type { SqlRunner } from '@/lib/db/migrate.js';
import { encodeReplay, type Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { getBoard } from '@/lib/server/games/boards';
import { getPlayerBests } from '@/lib/server/games/replays';
import { approveGame } from '@/lib/server/games/review';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { verifySubmission } from '@/lib/server/games/verify';
import { hit } from '@/lib/server/limits/limiter';
import { throwawayDatabase } from '@/tests/support/postgres';
import { botGame, claimOf, roboticGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player, streamLive } from '@/tests/data/play';

const url = process.env.DATABASE_URL;
const scratch = mkdtempSync(path.join(tmpdir(), 'linefall-backup-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pgliteRunner = (pglite: PGlite): SqlRunner & { close(): Promise<void> } => ({
  exec: (sql) => pglite.exec(sql),
  query: async (sql, params) => ({ rows: (await pglite.query<Record<string, unknown>>(sql, params)).rows }),
  close: () => pglite.close(),
});

/** The test database as a raw connection: the live embedded one, or a new PostgreSQL connection. */
async function sourceSql() {
  const { pglite } = await liveDbHandle(url);
  if (pglite) {
    const live: SqlRunner = { exec: (sql) => pglite.exec(sql), query: async (sql, params) => ({ rows: (await pglite.query<Record<string, unknown>>(sql, params)).rows }) };
    return { ...live, close: async () => {} };
  }
  return openSql({ kind: 'postgres', url: url! });
}

async function sourceDigests() {
  const { pglite } = await liveDbHandle(url);
  return pglite ? withPgliteSnapshot(pglite, tableDigests) : withPostgresSnapshot(url!, tableDigests);
}

/** Players, verified games with replays, bests, a refusal, held and approved games, rate-limit counters. */
async function seed() {
  await resetDb();
  const alice = await player('alice');
  const bob = await player('bob');
  await playAndSubmit({ owner: alice });
  await playAndSubmit({ owner: bob, issuedAt: minutes(30) });
  await playAndSubmit({ owner: alice, mode: 'ultra', issuedAt: minutes(60), play: botGame });
  await playAndSubmit({ owner: bob, tamper: (s) => void (s.claimed.score += 1000) });
  for (const approve of [true, false]) {
    const mode: Mode = 'sprint';
    const ticket = await issueTicket({ mode, owner: bob, now: minutes(90), live: true });
    const played = roboticGame(mode, ticket.seed);
    played.replay.nextCount = 5;
    await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner: bob, replay: played.replay });
    const held = await submitReplay({ gameId: ticket.gameId, owner: bob, submission: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) }, now: minutes(95) });
    expect(held).toMatchObject({ ok: true, status: 202 });
    if (approve) expect(await approveGame({ gameId: ticket.gameId, now: minutes(200) })).toMatchObject({ ok: true });
  }
  await hit([{ rule: 'submitPlayer', subject: alice.userId! }, { rule: 'signUpAddress', subject: '203.0.113.9' }], minutes(100));
  // The games' feature rows are written after their stores: wait for them, or a backup races them.
  await integritySettled();
  return { alice, bob };
}

/** What the site shows: every board a mode and period has, and each player's bests. */
async function pages(players: { userId: string | null }[]) {
  const boards = [];
  for (const mode of ['sprint', 'ultra'] as const) {
    boards.push(await getBoard({ mode, period: 'all', limit: 50 }));
    boards.push(await getBoard({ mode, period: 'week', bucket: '2026-W47', limit: 50 }));
  }
  return { boards, bests: await Promise.all(players.map((p) => getPlayerBests({ userId: p.userId! }))) };
}

/** Every stored game re-simulated from its replay against its own ticket, as at submission. */
async function replaysVerify() {
  const games = await (await getDb()).game.findMany({ include: { ticket: true } });
  expect(games.length).toBeGreaterThanOrEqual(5);
  for (const game of games) {
    const verdict = verifySubmission(game.ticket, { replay: game.replay, claimed: { score: game.score, lines: game.lines, ticks: game.ticks } }, game.createdAt);
    expect(verdict, `game ${game.id}`).toMatchObject({ ok: true });
  }
}

describe('scheduled backups', () => {
  it('keep the newest N files of their own and leave everything else in the directory alone', async () => {
    await seed();
    const dir = mkdtempSync(path.join(scratch, 'scheduled-'));
    await writeFile(path.join(dir, 'notes.txt'), 'the operator keeps this');
    const options = { databaseUrl: url, dir, everyMs: 3_600_000, keep: 2 };
    for (const hour of [1, 2, 3]) await runScheduledBackup(options, new Date(Date.UTC(2026, 10, 22, hour)));
    expect(readdirSync(dir).sort()).toEqual(['linefall-20261122T020000Z.ndjson.gz', 'linefall-20261122T030000Z.ndjson.gz', 'notes.txt']);
    expect((await inspectBackup(path.join(dir, 'linefall-20261122T030000Z.ndjson.gz'))).tables).toEqual(await sourceDigests());
    expect(backupStatus().last?.bytes).toBe(statSync(path.join(dir, 'linefall-20261122T030000Z.ndjson.gz')).size);
  });
});

describe('backup and restore', () => {
  it('round-trips into a fresh embedded database and a fresh PostgreSQL: same rows, same boards, replays verify', async () => {
    const { alice, bob } = await seed();
    const before = { digests: await sourceDigests(), pages: await pages([alice, bob]) };
    expect(before.digests.Game?.rows).toBeGreaterThanOrEqual(5);
    expect(before.digests.RateLimit?.rows).toBe(2);
    const file = path.join(scratch, 'round-trip.ndjson.gz');
    await backupLive(url, createWriteStream(file));

    // Across engines: the file loads into both, whichever the test database is.
    const fresh = new PGlite();
    const pglite = pgliteRunner(fresh);
    const postgres = await throwawayDatabase('linefall_restore');
    const postgresSql = await openSql({ kind: 'postgres', url: postgres.url });
    try {
      for (const [target, digests] of [
        [pglite, () => withPgliteSnapshot(fresh, tableDigests)],
        [postgresSql, () => withPostgresSnapshot(postgres.url, tableDigests)],
      ] as const) {
        await restoreBackup(target, createReadStream(file));
        expect(await digests()).toEqual(before.digests);
        await expect(restoreBackup(target, createReadStream(file))).rejects.toThrow(RestoreRefusedError);
      }
    } finally {
      await pglite.close();
      await postgresSql.close();
      await postgres.drop();
    }

    // Over the site's own database (forced): the site then serves the same pages.
    const sql = await sourceSql();
    try {
      await (await getDb()).rateLimit.deleteMany();
      await expect(restoreBackup(sql, createReadStream(file))).rejects.toThrow(/not empty.*--force/);
      await restoreBackup(sql, createReadStream(file), { force: true });
    } finally {
      await sql.close();
    }
    expect(await sourceDigests()).toEqual(before.digests);
    expect(await pages([alice, bob])).toEqual(before.pages);
    await replaysVerify();
  });

  it('refuses a truncated file or an unknown migration history and leaves the target as it was', async () => {
    await seed();
    const file = path.join(scratch, 'whole.ndjson.gz');
    await backupLive(url, createWriteStream(file));
    const lines = gunzipSync(await readFile(file)).toString('utf8').trimEnd().split('\n');
    const truncated = path.join(scratch, 'truncated.ndjson.gz');
    await writeFile(truncated, gzipSync(`${lines.slice(0, -3).join('\n')}\n`));
    const edited = path.join(scratch, 'edited.ndjson.gz');
    await writeFile(edited, gzipSync(`${lines[0]!.replace(/"checksum":"[0-9a-f]{6}/, '"checksum":"000000')}\n${lines.slice(1).join('\n')}\n`));
    const cut = path.join(scratch, 'cut.ndjson.gz');
    await writeFile(cut, (await readFile(file)).subarray(0, 2_000));

    const target = pgliteRunner(new PGlite());
    try {
      await target.exec('CREATE TABLE "Keep" (id int); INSERT INTO "Keep" VALUES (1)');
      await expect(restoreBackup(target, createReadStream(truncated), { force: true })).rejects.toThrow(/incomplete/);
      await expect(restoreBackup(target, createReadStream(cut), { force: true })).rejects.toThrow(/end of file|incomplete/);
      await expect(restoreBackup(target, createReadStream(edited), { force: true })).rejects.toThrow(/differs from the one the backup's database ran/);
      expect(await listTables(target)).toEqual(['Keep']);
      expect(await tablesWithRows(target)).toEqual(['Keep']);
    } finally {
      await target.close();
    }
  });
});

