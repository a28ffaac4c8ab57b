import 'server-only';
import { randomBytes } from 'node:crypto';
import { VERSUS_MODE_NAMES } from '@/lib/engine';
import { Prisma, type GameFeatures } from '@/lib/generated/prisma/client';
import { getDb, getSql } from '@/lib/server/db';
import { PoolBusyError } from '@/lib/server/verify-pool/pool';
import { verifyPool } from '@/lib/server/verify-pool';
import type { FeatureRow } from '@/lib/server/integrity/features';
import { judgeProfile, type GameRef, type ProfileFlag } from '@/lib/server/integrity/judge';
import { PROFILE, type IntegrityReason, type ModeKind } from '@/lib/server/integrity/rules';

/** A game just stored, as its store knows it: a solo game, or a versus match's games seat by seat. */
export type StoredGame =
  | { kind: 'solo'; gameId: string; userId: string | null; mode: string; replay: string; playedAt: Date }
  | {
      kind: 'versus'; matchId: string; mode: string; playedAt: Date; users: [string | null, string | null];
      games: ReadonlyArray<{ index: number; endTick: number; replays: readonly [string, string] }>;
    };

/** Stores waiting for their rows beyond this are logged and skipped: the rows are evidence, never worth memory under a flood. */
const MAX_BACKLOG = 500;
let backlog = 0;
let tail: Promise<void> = Promise.resolve();

/**
 * Called by a store once its transaction has committed: queues the game's feature rows and the
 * judgement of its players, and returns at once. One game is measured at a time, as a client of
 * the verification pool (never ahead of players' own verifications). Nothing here can fail or
 * slow the store: every failure is logged and the game stays stored.
 */
export function afterStore(stored: StoredGame): void {
  if (backlog >= MAX_BACKLOG) {
    console.error(`[integrity] backlog full: no feature rows for ${stored.kind === 'solo' ? stored.gameId : stored.matchId}`);
    return;
  }
  backlog++;
  tail = tail
    .then(() => recordIntegrity(stored))
    .catch((error: unknown) => console.error('[integrity] feature rows or flags could not be written', error))
    .finally(() => backlog--);
}

/** Resolves once every game queued so far has its rows and judgement (tests; a shutdown does not wait for it). */
export async function integritySettled(): Promise<void> {
  await tail;
}

type Item = { userId: string; encoded: string; endTick: number | null; where: { gameId: string } | { matchId: string; gameIndex: number; seat: number } };

function itemsOf(stored: StoredGame): Item[] {
  if (stored.kind === 'solo') return stored.userId ? [{ userId: stored.userId, encoded: stored.replay, endTick: null, where: { gameId: stored.gameId } }] : [];
  return stored.games.flatMap((g) =>
    ([0, 1] as const).flatMap((seat) => {
      const userId = stored.users[seat];
      return userId ? [{ userId, encoded: g.replays[seat], endTick: g.endTick, where: { matchId: stored.matchId, gameIndex: g.index, seat } }] : [];
    }),
  );
}

/**
 * Waits between tries while the verification pool is full. Players' verifications come first, so
 * the rows wait their turn rather than being dropped: a flood of long replays, which anyone can
 * send, must not be a way to keep a game from the judge. Past the last wait (about a minute) the
 * pool has been full all along, and the rows are given up.
 */
const BUSY_WAITS_MS = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000];

async function measured(items: Item[]): Promise<Array<FeatureRow | null> | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await verifyPool().run('features', items.map((i) => ({ encoded: i.encoded, endTick: i.endTick })), { client: 'integrity' });
    } catch (error) {
      if (!(error instanceof PoolBusyError)) throw error;
      const wait = BUSY_WAITS_MS[attempt];
      if (wait === undefined) return null;
      await new Promise((done) => setTimeout(done, wait).unref());
    }
  }
}

export async function recordIntegrity(stored: StoredGame): Promise<void> {
  const items = itemsOf(stored);
  if (items.length === 0) return;
  const rows = await measured(items);
  if (!rows) return console.error('[integrity] the pool stayed busy: no feature rows for this game');
  // One statement, straight to the driver (decision 0033): the rows of players who still have an
  // account, a duplicate skipped as before. A player who deleted their account since the store has
  // no rows to keep (and one seat's deletion must not cost the other seat its rows). The row type
  // maps the JSON keys to the table's columns; a timestamp's "Z" is ignored, so it stays UTC.
  const data = items.flatMap((item, i) => {
    const row = rows[i];
    return row ? [{ ...row, ...item.where, id: randomBytes(12).toString('hex'), userId: item.userId, mode: stored.mode, playedAt: stored.playedAt }] : [];
  });
  if (data.length === 0) return;
  const sql = await getSql();
  const kept = await sql<{ userId: string }>(Prisma.sql`
    WITH v AS (
      SELECT * FROM jsonb_populate_recordset(NULL::"GameFeatures", ${JSON.stringify(data)}::jsonb) AS v
      WHERE EXISTS (SELECT 1 FROM "User" u WHERE u."id" = v."userId")
    ), ins AS (INSERT INTO "GameFeatures" SELECT * FROM v ON CONFLICT DO NOTHING)
    SELECT DISTINCT "userId" FROM v`);
  const users = new Set(kept.map((k) => k.userId));
  for (const userId of new Set(data.map((d) => d.userId))) if (users.has(userId)) await judgePlayer({ userId, mode: stored.mode });
}

type WindowRow = GameFeatures & { decided: Array<{ reason: string; at: string }> };

/**
 * Judges a player's newest games in a mode and opens a flag for each reason found that has none
 * open. A reason a moderator has decided on counts only games played after that decision: a
 * dismissed flag is not raised again by the games it was dismissed over.
 */
export async function judgePlayer(options: { userId: string; mode: string; now?: Date }): Promise<number> {
  // One round trip (decision 0033): the reasons decided on, with their last decision, beside the
  // window; a window of no games is one row of nulls. DESC puts a solo game's null index first, as
  // Prisma's order did.
  const sql = await getSql();
  const read = await sql<WindowRow>(Prisma.sql`
    SELECT d."decided", g.* FROM (
      SELECT coalesce(json_agg(json_build_object('reason', x."reason", 'at', x."at")), '[]'::json) AS "decided"
      FROM (SELECT "reason", max("decidedAt") AS "at" FROM "IntegrityFlag"
            WHERE "userId" = ${options.userId} AND "mode" = ${options.mode} AND "decidedAt" IS NOT NULL GROUP BY "reason") x
    ) d LEFT JOIN LATERAL (
      SELECT * FROM "GameFeatures" WHERE "userId" = ${options.userId} AND "mode" = ${options.mode}
      -- The games of one match share its time: their order within it is the set's.
      ORDER BY "playedAt" DESC, "gameIndex" DESC LIMIT ${PROFILE.window}
    ) g ON true`);
  const games: GameFeatures[] = read.filter((r) => r.id !== null);
  // JSON carries a timestamp as ISO text without its zone; it is UTC (decision 0033).
  const decided = (read[0]?.decided ?? []).map((d) => ({ reason: d.reason, _max: { decidedAt: new Date(`${d.at}Z`) } }));
  const since = new Map(decided.map((d) => [d.reason, d._max.decidedAt]));
  const kind: ModeKind = VERSUS_MODE_NAMES.some((m) => m === options.mode) ? 'versus' : 'solo';
  const flags: ProfileFlag[] = [];
  for (const cutoff of new Set([undefined, ...since.values()])) {
    const after = games.filter((g) => !cutoff || g.playedAt > cutoff);
    const profile = after.map((g) => ({ ref: refOf(g), row: g }));
    flags.push(...judgeProfile(profile, kind).filter((f) => since.get(f.reason) === cutoff));
  }
  if (flags.length === 0) return 0;
  const now = options.now ?? new Date();
  const db = await getDb();
  const { count } = await db.integrityFlag.createMany({
    data: flags.map((f) => ({
      userId: options.userId, mode: options.mode, reason: f.reason, message: f.message,
      evidence: f.evidence as unknown as Prisma.InputJsonValue, openKey: openKey(options.userId, options.mode, f.reason), createdAt: now,
    })),
    skipDuplicates: true,
  });
  return count;
}

export const openKey = (userId: string, mode: string, reason: IntegrityReason) => `${userId}:${mode}:${reason}`;

function refOf(g: { gameId: string | null; matchId: string | null; gameIndex: number | null; seat: number | null }): GameRef {
  if (g.gameId) return { kind: 'solo', gameId: g.gameId };
  return { kind: 'versus', matchId: g.matchId ?? '', game: g.gameIndex ?? 0, seat: g.seat ?? 0 };
}
