import { RULES_VERSION, type Mode } from '@/lib/engine';
import type { Ticket } from '@/lib/client/api';

/** Practice games are never sent anywhere; the id only marks them on the page (tests read it). */
export const PRACTICE_GAME_ID = 'practice';

/**
 * A ticket made on this device for an unranked practice game: a local random seed, no server. It
 * keeps the game playable offline and while the live channel is down; nothing it produces is
 * submitted, so it cannot reach a board.
 */
export function practiceTicket(mode: Mode, now = Date.now()): Ticket {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const seed = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  const at = new Date(now).toISOString();
  return { gameId: PRACTICE_GAME_ID, seed, mode, rulesVersion: RULES_VERSION, issuedAt: at, expiresAt: at };
}
