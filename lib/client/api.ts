import type { Mode } from '@/lib/engine';
import type { StoredGameResponse } from '@/lib/server/games/describe';
import type { Ticket as TicketResponse } from '@/lib/server/games/tickets';
import { bodyOf, problemOf } from '@/lib/client/errors';

/** A game ticket as POST /api/games answers it. */
export type Ticket = TicketResponse;

/** The server's answer to a stored submission (201, 202, or 200 for a repeat), as it sends it. */
export type VerifiedGame = StoredGameResponse;

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Retry: the server may take it later. Final: it never will, so keeping it is pointless. */
export type Outcome =
  | { kind: 'ok'; body: VerifiedGame }
  | { kind: 'retry'; message: string; offline?: boolean; retryAfterMs?: number }
  | { kind: 'final'; message: string; code: string };

export function shouldRetry(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function isVerified(body: unknown): body is VerifiedGame {
  const b = body as Partial<VerifiedGame> | null;
  return typeof b?.game === 'object' && b.game !== null && typeof b.game.id === 'string';
}

const OFFLINE = 'Could not reach the server.';

export async function requestTicket(mode: Mode, fetchImpl: FetchLike = fetch): Promise<{ ok: true; ticket: Ticket } | { ok: false; message: string }> {
  let res: Response;
  try {
    res = await fetchImpl('/api/games', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mode }),
    });
  } catch {
    return { ok: false, message: `${OFFLINE} Ranked games need a connection, since the server checks every score; practice works offline.` };
  }
  const body = await bodyOf(res);
  if (!res.ok) return { ok: false, message: problemOf(res.status, body).message };
  const ticket = body as Ticket | null;
  if (typeof ticket?.gameId !== 'string' || typeof ticket.seed !== 'string') return { ok: false, message: 'The server sent a malformed game ticket.' };
  return { ok: true, ticket };
}

export interface Submission {
  gameId: string;
  mode: Mode;
  /** encodeReplay(game.replay()) */
  replay: string;
  claimed: { score: number; lines: number; ticks: number };
  /** The ticket's expiry (ISO time): past it the server refuses the replay, so a queued copy is dropped. */
  expiresAt?: string;
}

export async function submitReplay(s: Submission, fetchImpl: FetchLike = fetch): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetchImpl(`/api/games/${encodeURIComponent(s.gameId)}/replay`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ replay: s.replay, claimed: s.claimed }),
    });
  } catch {
    return { kind: 'retry', message: OFFLINE, offline: true };
  }
  const body = await bodyOf(res);
  if (res.ok && isVerified(body)) return { kind: 'ok', body };
  if (res.ok) return { kind: 'retry', message: 'The server sent a malformed answer.' };
  const err = problemOf(res.status, body);
  if (shouldRetry(res.status)) {
    // 429 and 503 say when to come back; asking sooner only prolongs the wait.
    const seconds = Number(res.headers.get('retry-after'));
    return seconds > 0 ? { kind: 'retry', message: err.message, retryAfterMs: seconds * 1000 } : { kind: 'retry', message: err.message };
  }
  // Started under another account (or as a guest) than the one now signed in: keep it until
  // the right player is back, rather than throwing away a finished game.
  if (res.status === 403 && err.code === 'ticket_forbidden') {
    return { kind: 'retry', message: 'Sign in as the player who started this game to save it.' };
  }
  return { kind: 'final', code: err.code, message: err.message };
}
