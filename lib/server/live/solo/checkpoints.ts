import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import type { UnrankedReason } from '@/lib/live/protocol';
import { getDb, type Db } from '@/lib/server/db';
import type { AckCheckpoint } from '@/lib/server/live/solo/ack-digest';

/** A statement takes at most 65,535 parameters: checkpoints take 9 a row, and a shutdown writes every game at once. */
const ROWS_PER_STATEMENT = 2_000;

export type CheckpointRow = { gameId: string; checkpoint: AckCheckpoint; pauses: number; unranked: UnrankedReason | null; awayMs: number; lagMs: number };

/**
 * Where the hosts' copies of live games had got to (ack-digest.ts), for a host that takes one up
 * after this one is lost: the games in `rows` in as few statements as a statement's parameters
 * allow (gathered-writes.ts gathers them).
 * Only ever moves forward: a late write from a host that handed the game over cannot wind back
 * the checkpoint its successor wrote.
 */
export async function saveAckCheckpoints(rows: readonly CheckpointRow[]): Promise<void> {
  if (rows.length === 0) return;
  const db = await getDb();
  // Raw and one statement for all: it runs for every live game every few seconds, and written
  // game by game it was most of the server's CPU at 1,000 games on PGlite (docs/decisions/0010).
  // Pauses, time away, a lost rank and the lag go with it, so a host taking the game up after a
  // crash does not start them afresh. The lag is the latest's (a game that caught up is not held to
  // an old one); the others only grow.
  // The ids again as a list: the join alone left the plan to the table's statistics, and PGlite
  // (no autovacuum) has none, so as the rows' versions piled up the planner turned to a nested
  // loop that compared every live ticket with every row: 15–25 ms of a blocked event loop per
  // write at 600 games, against ~1.5 ms with the list, which the primary key answers whatever
  // the statistics say (docs/decisions/0010).
  // At the same tick it still writes: a pause or time away since (a shutdown's last checkpoint).
  // In id order, so two instances writing overlapping rows (a handover) mostly take their locks in
  // one order; should PostgreSQL still end one as a deadlock, the next checkpoint carries it all.
  const all = rows.slice().sort((x, y) => (x.gameId < y.gameId ? -1 : x.gameId > y.gameId ? 1 : 0));
  for (let at = 0; at < all.length; at += ROWS_PER_STATEMENT) await saveCheckpointChunk(db, all.slice(at, at + ROWS_PER_STATEMENT));
}

async function saveCheckpointChunk(db: Db, sorted: readonly CheckpointRow[]): Promise<void> {
  const values = Prisma.join(sorted.map((r) =>
    Prisma.sql`(${r.gameId}, ${r.checkpoint.tick}::int, ${r.checkpoint.inputs}::int, ${r.checkpoint.digest}, ${r.pauses}::int, ${r.unranked}::text, ${Math.round(r.awayMs)}::int, ${Math.round(r.lagMs)}::int)`));
  await db.$executeRaw`
    UPDATE "GameTicket" t SET "liveAckTick" = v.tick, "liveAckInputs" = v.inputs, "liveAckDigest" = v.digest,
      "livePauses" = GREATEST(t."livePauses", v.pauses), "liveAwayMs" = GREATEST(t."liveAwayMs", v.away),
      "liveUnranked" = COALESCE(t."liveUnranked", v.unranked), "liveLagMs" = v.lag
    FROM (VALUES ${values}) AS v(id, tick, inputs, digest, pauses, unranked, away, lag)
    WHERE t."id" = v.id AND t."id" IN (${Prisma.join(sorted.map((r) => r.gameId))})
      AND t."live" AND t."streamDigest" IS NULL AND (t."liveAckTick" IS NULL OR t."liveAckTick" <= v.tick)`;
}

/**
 * Live games whose hosts closed before their end: never taken up again, so none can be revived
 * after its player was given up on. Their POSTs are still held as stream_incomplete, as before.
 * A statement per ROWS_PER_STATEMENT games (gathered-writes.ts gathers them).
 */
export async function giveUpLiveGames(options: { gameIds: readonly string[]; now?: Date }): Promise<void> {
  const db = await getDb();
  const now = options.now ?? new Date();
  for (let at = 0; at < options.gameIds.length; at += ROWS_PER_STATEMENT) {
    await db.gameTicket.updateMany({
      where: { id: { in: options.gameIds.slice(at, at + ROWS_PER_STATEMENT) }, live: true, streamDigest: null, liveGivenUpAt: null },
      data: { liveGivenUpAt: now },
    });
  }
}
