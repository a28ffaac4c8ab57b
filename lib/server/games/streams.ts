import 'server-only';
import { encodeReplay, type Replay, type ReplayResult } from '@/lib/engine';
import { createHash } from 'node:crypto';
import type { UnrankedReason } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import type { Owner } from '@/lib/server/games/owner';
import { submitReplay, type SubmitOutcome } from '@/lib/server/games/submit';
import { poolFailure, verifyOwn } from '@/lib/server/verify-pool';
import type { StreamVerdict } from '@/lib/server/verify-pool/jobs';

/**
 * When a finished stream is stored by the server itself: a live game's host waits this long after
 * the stream's end for the browser's POST of the same replay (which carries the player's own
 * claim), then stores the stream; the cleanup stores what no host did.
 */
export const STREAM_STORE = {
  /** After the stream ends, the browser's POST is awaited this long; then the host stores the stream itself. */
  finalizeAfterMs: 10_000,
  /** How long after its end a stream is left to its host and its POST before the cleanup stores it
   *  (finalizeAfterMs and a minute more). */
  unstoredAfterMs: 70_000,
  /** How long past its ticket's expiry an unstored stream is still looked for (the ticket is kept meanwhile: cleanup.ts). */
  keepMs: 7 * 24 * 60 * 60 * 1000,
  perRun: 200,
} as const;

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
  const cutoff = new Date(now.getTime() - STREAM_STORE.unstoredAfterMs);
  // `expiresAt` bounds the scan to recent tickets through its index; a stored game's ticket has no stream.
  const rows = await db.$queryRaw<{ id: string; userId: string | null; guestId: string | null; streamReplay: string; streamEndedAt: Date }[]>`
    SELECT t."id", t."userId", t."guestId", t."streamReplay", t."streamEndedAt" FROM "GameTicket" t
    WHERE t."expiresAt" > ${new Date(now.getTime() - STREAM_STORE.keepMs)} AND t."streamReplay" IS NOT NULL
      AND t."streamEndedAt" < ${cutoff} AND (t."usedAt" IS NULL OR t."usedAt" = t."abandonedAt")
    ORDER BY t."streamEndedAt" LIMIT ${STREAM_STORE.perRun}`;
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
