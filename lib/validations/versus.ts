import { z } from 'zod';
import { VERSUS_MODE_NAMES } from '@/lib/engine';

export const versusModeSchema = z.enum(VERSUS_MODE_NAMES, { error: `mode must be one of ${VERSUS_MODE_NAMES.join(', ')}` });

/** The two boards of a versus mode: the rating board, and this week's most wins. */
export const VERSUS_BOARDS = ['rating', 'wins'] as const;
export type VersusBoardId = (typeof VERSUS_BOARDS)[number];

/** GET /api/versus/leaderboards/{mode}?board=rating|wins&cursor=… and the page's query. */
export const versusBoardQuerySchema = z.object({
  mode: versusModeSchema,
  board: z.enum(VERSUS_BOARDS, { error: `board must be one of ${VERSUS_BOARDS.join(', ')}` }).default('rating'),
  cursor: z.string().max(200, 'cursor is invalid').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type VersusBoardQuery = z.output<typeof versusBoardQuerySchema>;

/**
 * A match history page link: the last entry's time (ms) and match id. Not signed: the history
 * is public and ordered by those two columns, so a made-up cursor only starts somewhere else.
 */
export const historyCursorSchema = z
  .string()
  .max(60)
  .regex(/^\d{1,15}-[A-Za-z0-9_-]{1,40}$/, 'not a history cursor')
  .transform((text) => {
    const dash = text.indexOf('-');
    return { at: new Date(Number(text.slice(0, dash))), matchId: text.slice(dash + 1) };
  });

export function historyCursor(at: Date, matchId: string): string {
  return `${at.getTime()}-${matchId}`;
}

/** Match ids in URLs: the host's ids (cuid-like), bounded before any lookup. */
export const matchIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'not a match id');

/** `?game=2`: the game of a set shown (1-based, as players count). */
export const gameParamSchema = z.coerce.number().int().min(1).max(32);

/** `?season=N` on the rating board: a season by number (past ones read from the closed standings). */
export const seasonParamSchema = z.coerce.number({ error: 'season must be a number' }).int('season must be a whole number').min(1, 'seasons start at 1').max(100_000, 'no such season').optional();
