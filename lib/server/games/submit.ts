import 'server-only';
import { createHash } from 'node:crypto';
import type { Submission } from '@/lib/validations/games';
import { isoWeek } from '@/lib/weeks';
import { isUniqueViolation } from '@/lib/db/errors';
import { getDb } from '../db';
import { recordBests } from './bests';
import { describeGame, type StoredGameResponse } from './describe';
import { isRankable, metricOf } from './metric';
import { owns, type Owner } from './owner';
import { GUEST_GAME_TTL_MS } from './policy';
import { verifySubmission } from './verify';

export type SubmitOutcome =
  | { ok: true; status: 200 | 201; body: StoredGameResponse }
  | { ok: false; status: number; code: string; message: string };

class TicketAlreadyUsed extends Error {}

/**
 * Verifies a replay for a ticket and stores the game if, and only if, the server's
 * re-simulation proves the claimed result. Every refusal is recorded with its reason.
 */
export async function submitReplay(options: {
  gameId: string;
  owner: Owner;
  submission: Submission;
  now?: Date;
}): Promise<SubmitOutcome> {
  const { gameId, owner, submission } = options;
  const now = options.now ?? new Date();
  const db = await getDb();
  const digest = createHash('sha256').update(submission.replay).digest('hex');

  const reject = async (status: number, code: string, message: string, burn = false): Promise<SubmitOutcome> => {
    await db.$transaction([
      ...(burn ? [db.gameTicket.updateMany({ where: { id: gameId, usedAt: null }, data: { usedAt: now } })] : []),
      db.rejectedSubmission.create({
        data: { ticketId: gameId, userId: owner.userId, guestId: owner.guestId, code, message, size: submission.replay.length },
      }),
    ]);
    return { ok: false, status, code, message };
  };

  const ticket = await db.gameTicket.findUnique({
    where: { id: gameId },
    select: {
      id: true, seed: true, mode: true, rulesVersion: true, userId: true, guestId: true,
      issuedAt: true, expiresAt: true, usedAt: true, game: { select: { id: true, replayDigest: true } },
    },
  });
  if (!ticket) return reject(404, 'ticket_not_found', 'No game was issued with this id.');
  if (!owns(ticket, owner)) return reject(403, 'ticket_forbidden', 'This game was issued to another player.');
  if (ticket.game) {
    // The same replay again (a retry after a lost response) gets the same answer.
    if (ticket.game.replayDigest === digest) return { ok: true, status: 200, body: await describeGame({ gameId: ticket.game.id, now }) };
    return reject(409, 'ticket_used', 'A different replay was already submitted for this game.');
  }
  if (ticket.usedAt) return reject(409, 'ticket_used', 'A replay for this game was already submitted and rejected.');
  if (ticket.expiresAt <= now) return reject(410, 'ticket_expired', 'This game expired before its replay arrived. Start a new game.');

  const verdict = verifySubmission(ticket, submission, now);
  if (!verdict.ok) return reject(verdict.code === 'replay_undecodable' ? 400 : 422, verdict.code, verdict.message, verdict.burn);

  const { result, replay } = verdict;
  // A guest who signed in before submitting keeps the game under the new account.
  const userId = ticket.userId ?? owner.userId;
  const week = isoWeek(now);
  try {
    await db.$transaction(async (tx) => {
      const spent = await tx.gameTicket.updateMany({ where: { id: ticket.id, usedAt: null }, data: { usedAt: now } });
      if (spent.count === 0) throw new TicketAlreadyUsed();
      await tx.game.create({
        data: {
          id: ticket.id,
          ticketId: ticket.id,
          userId,
          guestId: userId ? null : ticket.guestId,
          guestExpiresAt: userId ? null : new Date(now.getTime() + GUEST_GAME_TTL_MS),
          mode: replay.mode,
          score: result.score,
          lines: result.lines,
          level: result.level,
          ticks: result.ticks,
          pieces: result.pieces,
          keys: result.keys,
          pps: result.pps,
          kpp: result.kpp,
          finished: result.finished,
          toppedOut: result.toppedOut,
          replay: submission.replay,
          replayDigest: digest,
          finalHash: result.hash,
          rulesVersion: replay.rulesVersion,
          week,
          createdAt: now,
        },
      });
      if (userId && isRankable(replay.mode, result)) {
        await recordBests(tx, { userId, mode: replay.mode, gameId: ticket.id, metric: metricOf(replay.mode, result), achievedAt: now, week });
      }
    });
  } catch (error) {
    // Lost a race with an identical concurrent submission: answer as for a repeat.
    if (!(error instanceof TicketAlreadyUsed) && !isUniqueViolation(error)) throw error;
    const stored = await db.game.findUnique({ where: { ticketId: ticket.id }, select: { id: true, replayDigest: true } });
    if (stored?.replayDigest === digest) return { ok: true, status: 200, body: await describeGame({ gameId: stored.id, now }) };
    return reject(409, 'ticket_used', 'A different replay was already submitted for this game.');
  }
  return { ok: true, status: 201, body: await describeGame({ gameId: ticket.id, now }) };
}
