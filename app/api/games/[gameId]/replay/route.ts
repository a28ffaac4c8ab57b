import { NextResponse } from 'next/server';
import { getSessionUser } from '@/lib/server/auth';
import { submitReplay } from '@/lib/server/games/submit';
import { gateSubmission } from '@/lib/server/games/ticket-read';
import { readGuestId } from '@/lib/server/guest';
import { awaitStreamRecord } from '@/lib/server/live/registry';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { clientAddressKey, enforce, tooManyRequests } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';
import { idSchema, SUBMISSION_BODY_LIMIT, submissionSchema } from '@/lib/validations/games';

/** Submit a finished game's replay; the server re-simulates it before storing anything. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ gameId: string }> }) => {
  const { gameId } = await params;
  const user = await getSessionUser();
  // A banned player sees why, on every attempt (their open tickets were spent by the ban too).
  if (user?.banReason != null) return apiError(403, 'banned', `Your account is banned from playing ranked games: ${user.banReason}`);
  const guestId = await readGuestId();
  const player = user?.id ?? guestId;
  const checks = [
    { rule: 'submitAddress' as const, subject: await clientAddressKey() },
    ...(player ? [{ rule: 'submitPlayer' as const, subject: player }] : []),
  ];
  // The moment the ticket is read: the game is judged as of then (submit.ts, `ticket`).
  const now = new Date();
  if (!idSchema.safeParse(gameId).success) return (await enforce(checks, now)) ?? apiError(404, 'ticket_not_found', 'No game was issued with this id.');
  // The count and the ticket in one statement, before the body: both are known already.
  const { verdict, ticket } = await gateSubmission(checks, gameId, now);
  if (!verdict.ok) return tooManyRequests(verdict);
  // The size cap applies before anything is parsed or decoded.
  const body = await readJson(request, SUBMISSION_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = submissionSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const owner = { userId: user?.id ?? null, guestId };
  const outcome = await submitReplay({ gameId, owner, submission: parsed.data, now, ticket, awaitRecord: awaitStreamRecord });
  if (!outcome.ok) return apiError(outcome.status, outcome.code, outcome.message);
  return NextResponse.json(outcome.body, { status: outcome.status });
});
