import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { isRankable, metricOf } from '@/lib/engine';
import type { Submission } from '@/lib/validations/games';
import { ALL_TIME, PERIODS } from '@/lib/periods';
import { getDb, getSql } from '@/lib/server/db';
import { Prisma } from '@/lib/generated/prisma/client';
import { aheadOnEveryBoard, bucketRows, NOT_BANNED, ranksFrom, UPSERT_BEST } from '@/lib/server/games/bests';
import { describeGame, describeStored, isHeld, type StoredGameResponse } from '@/lib/server/games/describe';
import { owns, type Owner } from '@/lib/server/games/owner';
import { GUEST_GAME_TTL_MS } from '@/lib/server/games/policy';
import { paceDecision, type PaceFacts } from '@/lib/server/games/paced';
import { countRefusal } from '@/lib/server/games/refusals';
import { readTicket, type TicketRow } from '@/lib/server/games/ticket-read';
import { afterStore } from '@/lib/server/integrity/record';
import { verifyOwn, verifyPool } from '@/lib/server/verify-pool';
import { boardsChanged } from '@/lib/server/games/board-cache';

/**
 * 201: stored and on the boards. 202: stored, but its timing looked inhuman, so it has no rank
 * until a reviewer approves it (`body.review` says why). 200 / 202: a repeat of a stored submission.
 */
export type SubmitOutcome =
  | { ok: true; status: 200 | 201 | 202; body: StoredGameResponse }
  | { ok: false; status: number; code: string; message: string };

/** Waits up to `ms` for a live game's end to be recorded on its ticket: 'recording' if it still is not. */
export type AwaitStreamRecord = (gameId: string, ms: number) => Promise<'recorded' | 'recording' | 'not_here'>;

/**
 * Verifies a replay for a ticket and stores the game if, and only if, the server's
 * re-simulation proves the claimed result. Every refusal of the caller's own ticket is recorded
 * with its reason; the others are counted per day and code.
 */
export async function submitReplay(options: {
  gameId: string;
  owner: Owner;
  submission: Submission;
  now?: Date;
  /** The server's own store of a live stream: it waits for a worker instead of being refused as busy. */
  own?: boolean;
  /**
   * A live game whose end is still being recorded (its host retries while the database is away)
   * is waited for through this, so the POST is matched against the record rather than held as
   * stream_incomplete. The live hub supplies it (lib/server/live/registry.ts); without it, the
   * ticket is read as it stands.
   */
  awaitRecord?: AwaitStreamRecord;
  /**
   * The ticket as read with the request's rate-limit count (ticket-read.ts), before the body:
   * `now` must then be the moment of that read, so a ticket abandoned while the body was on its
   * way is judged as of a moment before its abandonment, never after. Read here if absent.
   */
  ticket?: TicketRow | null;
}): Promise<SubmitOutcome> {
  const { gameId, owner, submission } = options;
  const now = options.now ?? new Date();
  const db = await getDb();
  const sql = await getSql();
  const digest = createHash('sha256').update(submission.replay).digest('hex');

  // One statement: the refusal recorded and, for a replay that spent its ticket, the ticket burnt.
  // An abandoned ticket is spent too (its usedAt then no longer equals abandonedAt); a live
  // stream's copy of the replay goes with it, since nothing can store it any more. Refusals are
  // what a hostile client makes the most of: one round trip each, not a transaction's four.
  const reject = async (status: number, code: string, message: string, burn = false): Promise<SubmitOutcome> => {
    await sql(Prisma.sql`
      WITH burnt AS (
        UPDATE "GameTicket" SET "usedAt" = ${now}, "streamReplay" = NULL
        WHERE ${burn} AND "id" = ${gameId} AND ("usedAt" IS NULL OR "usedAt" = "abandonedAt")
      )
      INSERT INTO "RejectedSubmission" ("id", "ticketId", "userId", "guestId", "code", "message", "size", "createdAt")
      VALUES (${randomBytes(12).toString('hex')}, ${gameId}, ${owner.userId}, ${owner.guestId}, ${code}, ${message}, ${submission.replay.length}, ${now})`);
    return { ok: false, status, code, message };
  };

  const ticket = options.ticket === undefined ? await readTicket(gameId) : options.ticket;
  // No ticket of the caller's: counted, not recorded one by one (refusals.ts).
  const counted = async (status: number, code: string, message: string): Promise<SubmitOutcome> => {
    await countRefusal(code, now);
    return { ok: false, status, code, message };
  };
  if (!ticket) return counted(404, 'ticket_not_found', 'No game was issued with this id.');
  if (!owns(ticket, owner)) return counted(403, 'ticket_forbidden', 'This game was issued to another player.');
  if (ticket.storedGameId) {
    // The same replay again (a retry after a lost response) gets the same answer.
    if (ticket.storedDigest === digest) return repeat(ticket.storedGameId);
    return reject(409, 'ticket_used', 'A different replay was already submitted for this game.');
  }
  // A newer ticket forfeits only a game still running when it was issued: a game that had already
  // ended (its replay queued offline, or still on its way) is judged as of that moment, so
  // starting the next game never loses the last one, and no seed can be played after a peek.
  const abandoned = ticket.abandonedAt;
  if (!abandoned && ticket.usedAt) return reject(409, 'ticket_used', 'A replay for this game was already submitted and rejected.');
  if (ticket.expiresAt <= now) return reject(410, 'ticket_expired', 'This game expired before its replay arrived. Start a new game.');

  // Off the event loop (a long Marathon re-simulates for tens of milliseconds). A full queue, or
  // this player's share of it in use, throws PoolBusyError before anything is written, and route()
  // answers 503 busy.
  const job = {
    ticket: { seed: ticket.seed, mode: ticket.mode, rulesVersion: ticket.rulesVersion, issuedAt: ticket.issuedAt },
    submission,
    // The earlier of the two: a read queued behind a slow batch can see an abandonment later than
    // the request's moment, and the game must have ended by that moment all the same.
    now: abandoned && abandoned < now ? abandoned : now,
  };
  const verdict = options.own
    ? await verifyOwn('solo', job)
    : await verifyPool().run('solo', job, { client: owner.userId ?? owner.guestId ?? undefined });
  if (!verdict.ok && abandoned && verdict.code === 'longer_than_elapsed') {
    return reject(409, 'ticket_abandoned', 'A newer game was started in this mode before this one ended, so this one was forfeited.');
  }
  if (!verdict.ok) return reject(verdict.code === 'replay_undecodable' ? 400 : 422, verdict.code, verdict.message, verdict.burn);

  // A live game's replay must be the streamed game; refused without spending the ticket, so the
  // host can still store the stream itself (finalize.ts). Any other game is held as unpaced.
  const facts = await streamFacts(ticket, options.awaitRecord);
  if (facts === 'recording') return { ok: false, status: 503, code: 'stream_pending', message: 'The server is still recording the end of this live game; try again in a few seconds.' };
  const pace = paceDecision(facts, digest);
  if (!pace.ok) return reject(422, pace.code, pace.message);
  const { result } = verdict;
  const flag = pace.hold ?? verdict.flag;
  const status = pace.hold ? 'unpaced' : 'pending';
  // A guest who signed in before submitting keeps the game under the new account.
  const userId = ticket.userId ?? owner.userId;
  const week = PERIODS.week.bucketOf(now);
  const game = {
    id: ticket.id,
    userId,
    mode: verdict.mode,
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
    clears: result.clears ?? 0,
    week,
    createdAt: now,
    reviewStatus: flag ? status : null,
    reviewReason: flag?.reason ?? null,
    reviewMessage: flag?.message ?? null,
  };
  // A held game gets no bests (so no place on any board) until a reviewer approves it (review.ts);
  // an unpaced one never does.
  const rankable = userId !== null && isRankable(game.mode, game) && !flag;
  const metric = metricOf(game.mode, game);
  const position = { mode: game.mode, metric, achievedAt: now, gameId: game.id, userId };
  // One statement, so one atomic step: spend the ticket (only if still unused; a live stream's copy
  // of the replay goes, the game holds it now), store the game,
  // update the player's bests, and rank the result (the counts read the boards as they were
  // before this statement, and leave the player's own best out anyway). A concurrent twin finds
  // the ticket spent and stores nothing.
  // Straight to the driver (adapter.ts): its parameters carry the replay, which Prisma's query
  // compiler would copy in and out of its WebAssembly on every submission.
  const stored = await sql<{ id: string; ahead: Record<string, number>; isBest: boolean; newBest: boolean; abandoned: boolean }>(Prisma.sql`
    WITH spent AS (
      UPDATE "GameTicket" SET "usedAt" = ${now}, "streamReplay" = NULL
      WHERE "id" = ${ticket.id} AND ("usedAt" IS NULL OR "usedAt" = "abandonedAt") AND "userId" IS NOT DISTINCT FROM ${ticket.userId}
      RETURNING "id", "abandonedAt" IS NOT NULL AS "abandoned"
    ), game AS (
      INSERT INTO "Game" ("id", "ticketId", "userId", "guestId", "guestExpiresAt", "mode", "score", "lines", "level", "ticks",
                          "pieces", "keys", "pps", "kpp", "finished", "toppedOut", "clears", "finesseFaults", "replay", "replayDigest", "finalHash",
                          "rulesVersion", "week", "createdAt", "reviewStatus", "reviewReason", "reviewMessage")
      SELECT "id", "id", ${userId}, ${userId ? null : ticket.guestId},
             ${userId ? null : new Date(now.getTime() + GUEST_GAME_TTL_MS)}::timestamp(3),
             ${game.mode}, ${game.score}, ${game.lines}, ${game.level}, ${game.ticks}, ${game.pieces}, ${game.keys},
             ${game.pps}, ${game.kpp}, ${game.finished}, ${game.toppedOut}, ${game.clears}, ${verdict.finesseFaults}, ${submission.replay}, ${digest}, ${result.hash},
             ${verdict.rulesVersion}, ${week}, ${now}, ${game.reviewStatus}, ${game.reviewReason}, ${game.reviewMessage}
      FROM spent
      RETURNING "id", "userId"
    ), bests AS (
      INSERT INTO "PersonalBest" ("userId", "mode", "period", "gameId", "metric", "achievedAt")
      SELECT game."userId", ${game.mode}, period, game."id", ${metric}, ${now}
      FROM game, (VALUES ${bucketRows(now)}) AS buckets (period)
      WHERE ${rankable} AND ${NOT_BANNED(Prisma.sql`game."userId"`)}
      ${UPSERT_BEST}
      RETURNING "period"
    )
    SELECT "id", ${aheadOnEveryBoard(position)} AS "ahead",
           EXISTS (SELECT 1 FROM bests WHERE "period" = ${ALL_TIME}) AS "isBest",
           EXISTS (SELECT 1 FROM bests) AS "newBest",
           (SELECT "abandoned" FROM spent) AS "abandoned"
    FROM game`);
  const [row] = stored;
  if (!row) {
    // The guest signed in since the ticket was read, and it went to the account (claim.ts): judged
    // again as the account's, or the game would be stored as a guest game nobody claims.
    const fresh = await readTicket(ticket.id);
    if (fresh?.userId && ticket.userId === null && !fresh.storedGameId) {
      return submitReplay({ ...options, owner: { userId: fresh.userId, guestId: owner.guestId }, ticket: fresh });
    }
    // Lost a race with a concurrent submission for the same ticket: answer as for a repeat.
    const [twin] = await db.$queryRaw<{ id: string; replayDigest: string }[]>`
      SELECT "id", "replayDigest" FROM "Game" WHERE "ticketId" = ${ticket.id}`;
    if (twin?.replayDigest === digest) return repeat(twin.id);
    return reject(409, 'ticket_used', 'A different replay was already submitted for this game.');
  }
  // As the store found the ticket: a newer game may have been started after the ticket was read.
  if (row.abandoned && ticket.userId) {
    // It was not abandoned after all: the profile's count should not say so.
    await db.abandonCount.updateMany({ where: { userId: ticket.userId, mode: game.mode, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
  }
  // A best on any board (a week's, a day's): the boards read here show it at once.
  if (row.newBest) boardsChanged();
  afterStore({ kind: 'solo', gameId: game.id, userId, mode: game.mode, replay: submission.replay, playedAt: now });
  const ranks = { rank: ranksFrom(row.ahead), isBest: row.isBest };
  return { ok: true, status: flag ? 202 : 201, body: await describeStored(db, game, ranks) };
}

/** The answer to a repeat of a stored submission: the same body, 202 while the game is held. */
async function repeat(gameId: string): Promise<SubmitOutcome> {
  const body = await describeGame({ gameId });
  return { ok: true, status: isHeld(body.game.reviewStatus) ? 202 : 200, body };
}

/** How long a POST waits for this process to record a live game's end (its host retries every 2 s at most). */
const STREAM_RECORD_WAIT_MS = 5_000;

/** The ticket's live facts, once the stream's end is on it if this process is still recording it. */
async function streamFacts(ticket: TicketRow, awaitRecord: AwaitStreamRecord | undefined): Promise<PaceFacts | 'recording'> {
  if (!ticket.live || ticket.streamDigest !== null) return ticket;
  const record = awaitRecord ? await awaitRecord(ticket.id, STREAM_RECORD_WAIT_MS) : 'not_here';
  if (record === 'recording') return 'recording';
  // Read again even when no host here is recording it: the record may have landed since the
  // ticket was read above (a host elsewhere, or one that finished meanwhile).
  const db = await getDb();
  const fresh = await db.gameTicket.findUnique({ where: { id: ticket.id }, select: { live: true, streamDigest: true, liveUnranked: true } });
  return fresh ?? ticket;
}
