import 'server-only';
import type { UnrankedReason } from '@/lib/live/protocol';
import { PACING } from '@/lib/server/live/pacing';

/** What the live channel recorded on a ticket (lib/server/live/solo/game-host.ts writes it). */
export type PaceFacts = { live: boolean; streamDigest: string | null; liveUnranked: string | null };

/** Why a verified game is off the boards for pacing; stored as reviewStatus 'unpaced'. */
export type PaceHold = { reason: string; message: string };

export const UNPACED_MESSAGES: Record<string, string> = {
  not_live: 'This game was not played over the live channel (the server did not deal its pieces or watch its clock), so it is stored but not ranked.',
  stream_incomplete: 'The live stream of this game broke off before its end, so the server could not watch all of it; it is stored but not ranked.',
  paused: 'This game was paused, and a ranked game of its mode allows no pause; it is stored but not ranked.',
  pause_budget: 'This game used more pauses, or longer ones, than a ranked game of its mode allows; it is stored but not ranked.',
  too_slow: 'This game fell behind the clock by more than a ranked game allows; it is stored but not ranked.',
  // Away in all, over every reconnect; a game not back within PACING.resumeWindowMs is given up and held as stream_incomplete.
  disconnected: `This game was away from its live connection for more than ${PACING.maxAwayMs / 1000} s in all; it is stored but not ranked.`,
} satisfies Record<UnrankedReason | 'not_live' | 'stream_incomplete', string>;

/**
 * The pacing decision for a proven replay (docs/decisions/0010-live-protocol.md): a live game's
 * replay must be exactly the streamed game; any other game is held as unpaced with its reason.
 * Pure: submit.ts does the database work around it.
 */
export function paceDecision(ticket: PaceFacts, digest: string): { ok: false; code: 'stream_mismatch'; message: string } | { ok: true; hold: PaceHold | null } {
  const hold = (reason: string): { ok: true; hold: PaceHold } => ({ ok: true, hold: { reason, message: UNPACED_MESSAGES[reason] ?? UNPACED_MESSAGES.not_live! } });
  if (!ticket.live) return hold('not_live');
  if (ticket.streamDigest === null) return hold('stream_incomplete');
  if (ticket.streamDigest !== digest)
    return { ok: false, code: 'stream_mismatch', message: 'This replay is not the game that was streamed live (its inputs or result differ).' };
  return ticket.liveUnranked ? hold(ticket.liveUnranked) : { ok: true, hold: null };
}
