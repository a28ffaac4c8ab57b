import { z } from 'zod';
import { MAX_REPLAY_TICKS } from '@/lib/engine';
import { idSchema } from '@/lib/validations/games';
import { gameParamSchema, matchIdSchema } from '@/lib/validations/versus';

/** Longer than any fumen a 23-row page with a comment needs; bounds the work before decoding. */
export const MAX_FUMEN_LENGTH = 8192;
/** The first of a repeated parameter; anything invalid is dropped (undefined). */
function one<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (Array.isArray(v) ? v[0] : v), schema.optional()).catch(undefined);
}

/**
 * `/practice` query: `?replay=<gameId>&tick=<n>` (a replay's moment), `?match=<id>&game=<n>&seat=<0|1>&tick=<n>`
 * (a moment of one seat's field in a stored match, the game 1-based), `?room=<id>&game=<n>&seat=<0–15>&tick=<n>`
 * (the same in a stored room set) or `?fumen=v115@…&page=<n>`
 * (1-based, as fumen sites number pages). Bad values are dropped rather than refused: the page
 * then says what it could not open.
 */
export const practiceQuerySchema = z.object({
  replay: one(idSchema),
  match: one(matchIdSchema),
  game: one(gameParamSchema),
  room: one(matchIdSchema),
  // Digits only, 0–15 (a room's seats; a versus match has 0 and 1): a coerced number would read an empty `?seat=` as seat 0.
  seat: one(z.string().regex(/^(?:1[0-5]|[0-9])$/).transform(Number)),
  tick: one(z.coerce.number().int().min(0).max(MAX_REPLAY_TICKS)),
  fumen: one(z.string().max(MAX_FUMEN_LENGTH)),
  // Any whole page number is kept (0 and past the end too): the sandbox then says the fumen has no such page.
  page: one(z.coerce.number().int().min(0).max(1_000_000)),
});
export type PracticeQuery = z.infer<typeof practiceQuerySchema>;
