import 'server-only';
import { encodeReplay, type Replay, type ReplayResult } from '@/lib/engine';
import { createHash } from 'node:crypto';
import type { UnrankedReason } from '@/lib/live/protocol';
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
