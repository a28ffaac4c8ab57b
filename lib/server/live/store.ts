import 'server-only';
import { encodeReplay, type Replay, type ReplayResult } from '@/lib/engine';
import { createHash } from 'node:crypto';
import type { UnrankedReason } from '@/lib/live/protocol';
import type { AckCheckpoint } from '@/lib/server/live/ack-digest';
import { getDb } from '@/lib/server/db';
import type { Owner } from '@/lib/server/games/owner';
import { submitReplay, type SubmitOutcome } from '@/lib/server/games/submit';

/** What a live game's ticket row learns when its stream ends: the streamed game's digest. */
export async function recordStreamEnd(options: { gameId: string; replay: Replay; unranked: UnrankedReason | null; now?: Date }): Promise<string> {
  const encoded = encodeReplay(options.replay);
  const digest = createHash('sha256').update(encoded).digest('hex');
  const db = await getDb();
  await db.gameTicket.updateMany({
    where: { id: options.gameId, live: true, streamDigest: null },
    data: { streamDigest: digest, streamEndedAt: options.now ?? new Date(), liveUnranked: options.unranked },
  });
  return encoded;
}

/**
 * Where the host's copy of a live game had got to (ack-digest.ts), for a host that takes it up
 * after this one is lost. Only ever moves forward: a late write from a host that handed the game
 * over cannot wind back the checkpoint its successor wrote.
 */
export async function saveAckCheckpoint(options: { gameId: string; checkpoint: AckCheckpoint; pauses: number; unranked: UnrankedReason | null }): Promise<void> {
  const { tick, inputs, digest } = options.checkpoint;
  const db = await getDb();
  // Raw, because it runs for every live game every few seconds: measured at about a quarter of
  // the CPU the same updateMany costs in this process (docs/decisions/0010). Pauses and a lost
  // rank go with it, so a host taking the game up after a crash does not start them afresh.
  await db.$executeRaw`
    UPDATE "GameTicket" SET "liveAckTick" = ${tick}, "liveAckInputs" = ${inputs}, "liveAckDigest" = ${digest},
      "livePauses" = ${options.pauses}, "liveUnranked" = COALESCE("liveUnranked", ${options.unranked})
    WHERE "id" = ${options.gameId} AND "live" AND "streamDigest" IS NULL AND ("liveAckTick" IS NULL OR "liveAckTick" < ${tick})`;
}

/**
 * A live game whose host closed before its end: never taken up again, so it cannot be revived
 * after its player was given up on. Its POST is still held as stream_incomplete, as before.
 */
export async function giveUpLiveGame(options: { gameId: string; now?: Date }): Promise<void> {
  const db = await getDb();
  await db.gameTicket.updateMany({
    where: { id: options.gameId, live: true, streamDigest: null, liveGivenUpAt: null },
    data: { liveGivenUpAt: options.now ?? new Date() },
  });
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
export async function finalizeStream(options: { gameId: string; owner: Owner; encoded: string; result: ReplayResult }): Promise<SubmitOutcome> {
  const { score, lines, ticks } = options.result;
  return submitReplay({ gameId: options.gameId, owner: options.owner, submission: { replay: options.encoded, claimed: { score, lines, ticks } } });
}
