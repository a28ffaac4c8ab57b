import 'server-only';
import { encodeReplay, type Replay, type ReplayResult } from '@/lib/engine';
import { createHash } from 'node:crypto';
import type { UnrankedReason } from '@/lib/live/protocol';
import type { AckCheckpoint } from '@/lib/server/live/ack-digest';
import { Prisma } from '@/lib/generated/prisma/client';
import { getDb, type Db } from '@/lib/server/db';
import { PACING } from '@/lib/server/live/pacing';
import type { Owner } from '@/lib/server/games/owner';
import { submitReplay, type SubmitOutcome } from '@/lib/server/games/submit';
import { poolFailure, verifyOwn } from '@/lib/server/verify-pool';
import type { StreamVerdict } from '@/lib/server/verify-pool/jobs';

/** What a live game's ticket row learns when its stream ends: the streamed game's digest. */
export async function recordStreamEnd(options: { gameId: string; replay: Replay; unranked: UnrankedReason | null; now?: Date }): Promise<string> {
  const encoded = encodeReplay(options.replay);
  const digest = createHash('sha256').update(encoded).digest('hex');
  const db = await getDb();
  await db.gameTicket.updateMany({
    where: { id: options.gameId, live: true, streamDigest: null },
    data: { streamDigest: digest, streamEndedAt: options.now ?? new Date(), liveUnranked: options.unranked, streamReplay: encoded },
  });
  return encoded;
}

/** How long after its end a stream is left to its host and its POST before the cleanup stores it. */
export const UNSTORED_STREAM_AFTER_MS = PACING.finalizeAfterMs + 60_000;
/** How long past its ticket's expiry an unstored stream is still looked for (the ticket is kept meanwhile: cleanup.ts). */
const UNSTORED_STREAM_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
const UNSTORED_STREAMS_PER_RUN = 200;

/**
 * Stores games whose stream's end is recorded but which nobody stored: the host was lost (a crash,
 * a kill) between recording the end and storing it, and the player never came back to POST the
 * replay. Through the same verification and store as a POST, judged as of the stream's end (the
 * ticket may have expired since), as the host itself would have. A stream refused there (its ticket
 * was forfeited, say) is dropped from the ticket, so it is refused, and recorded, once. Returns how
 * many games were stored.
 */
export async function storeUnstoredStreams(now = new Date()): Promise<number> {
  const db = await getDb();
  const cutoff = new Date(now.getTime() - UNSTORED_STREAM_AFTER_MS);
  // `expiresAt` bounds the scan to recent tickets through its index; a stored game's ticket has no stream.
  const rows = await db.$queryRaw<{ id: string; userId: string | null; guestId: string | null; streamReplay: string; streamEndedAt: Date }[]>`
    SELECT t."id", t."userId", t."guestId", t."streamReplay", t."streamEndedAt" FROM "GameTicket" t
    WHERE t."expiresAt" > ${new Date(now.getTime() - UNSTORED_STREAM_KEEP_MS)} AND t."streamReplay" IS NOT NULL
      AND t."streamEndedAt" < ${cutoff} AND (t."usedAt" IS NULL OR t."usedAt" = t."abandonedAt")
    ORDER BY t."streamEndedAt" LIMIT ${UNSTORED_STREAMS_PER_RUN}`;
  let stored = 0;
  for (const row of rows) {
    const owner = { userId: row.userId, guestId: row.guestId };
    // Re-simulated in a worker; only the replay's own faults drop it. The database's (thrown by
    // finalizeStream) are tried again at the next run.
    let replayed: StreamVerdict;
    try {
      replayed = await verifyOwn('stream', row.streamReplay);
    } catch (error) {
      // Workers lost twice under this replay: kept for the next run, and the others go on.
      if (!poolFailure(error)) throw error;
      console.error(`[live] the recorded stream of game ${row.id} could not be replayed now: ${(error as Error).message}`);
      continue;
    }
    if (replayed.ok) {
      const outcome = await finalizeStream({ gameId: row.id, owner, encoded: row.streamReplay, result: replayed.result, now: row.streamEndedAt });
      if (outcome.ok) {
        if (outcome.status !== 200) stored++; // 200: another instance's cleanup, or a POST, stored it first
        continue;
      }
      console.error(`[live] the recorded stream of game ${row.id} was refused when stored: ${outcome.code}: ${outcome.message}`);
    } else {
      console.error(`[live] the recorded stream of game ${row.id} cannot be replayed: ${replayed.message}`);
    }
    await db.gameTicket.updateMany({ where: { id: row.id }, data: { streamReplay: null } });
  }
  return stored;
}

/** A statement takes at most 65,535 parameters: checkpoints take 8 a row, and a shutdown writes every game at once. */
const ROWS_PER_STATEMENT = 2_000;

export type CheckpointRow = { gameId: string; checkpoint: AckCheckpoint; pauses: number; unranked: UnrankedReason | null; awayMs: number };

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
  // Pauses, time away and a lost rank go with it, so a host taking the game up after a crash does
  // not start them afresh.
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
    Prisma.sql`(${r.gameId}, ${r.checkpoint.tick}::int, ${r.checkpoint.inputs}::int, ${r.checkpoint.digest}, ${r.pauses}::int, ${r.unranked}::text, ${Math.round(r.awayMs)}::int)`));
  await db.$executeRaw`
    UPDATE "GameTicket" t SET "liveAckTick" = v.tick, "liveAckInputs" = v.inputs, "liveAckDigest" = v.digest,
      "livePauses" = GREATEST(t."livePauses", v.pauses), "liveAwayMs" = GREATEST(t."liveAwayMs", v.away),
      "liveUnranked" = COALESCE(t."liveUnranked", v.unranked)
    FROM (VALUES ${values}) AS v(id, tick, inputs, digest, pauses, unranked, away)
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

/** A stream that broke the rules (it ran ahead of the clock): the ticket is spent, the refusal recorded. */
export async function refuseLiveGame(options: { gameId: string; owner: Owner; code: string; message: string; now?: Date }): Promise<void> {
  const now = options.now ?? new Date();
  const db = await getDb();
  await db.$transaction([
    db.gameTicket.updateMany({ where: { id: options.gameId, usedAt: null }, data: { usedAt: now } }),
    db.rejectedSubmission.create({
      data: { ticketId: options.gameId, userId: options.owner.userId, guestId: options.owner.guestId, code: options.code, message: options.message, size: 0, createdAt: now },
    }),
  ]);
}

/**
 * Stores a finished stream through the same verification and atomic store as a POSTed replay
 * (submit.ts). When the browser's POST of the same replay came first this is a repeat and
 * changes nothing, so it is safe to call whatever happened to the POST.
 */
export async function finalizeStream(options: { gameId: string; owner: Owner; encoded: string; result: ReplayResult; now?: Date }): Promise<SubmitOutcome> {
  const { score, lines, ticks } = options.result;
  return submitReplay({ gameId: options.gameId, owner: options.owner, submission: { replay: options.encoded, claimed: { score, lines, ticks } }, now: options.now, own: true });
}
