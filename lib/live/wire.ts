/**
 * The pieces both halves of the live channel's messages are made of (protocol.ts: solo and the
 * channel itself; versus.ts: matches): ticks, pieces, inputs, handling, a player and their
 * counters. Each is a zod schema with its type inferred, so the server and the browser parse the
 * same shapes.
 */
import { z } from 'zod';
import { ARR_MAX, ARR_MIN, DAS_MAX, DAS_MIN, KEYS, PIECES, SDF_MAX, SDF_MIN } from '@/lib/engine';
import { botSpecSchema } from '@/lib/bot/spec';

/** The last tick a live game may reach: an hour at 60 ticks a second. */
export const MAX_TICK = 216_000;
export const tickSchema = z.number().int().min(0).max(MAX_TICK);
/** A count or an index that is never negative (a sequence index, a seq, a score). */
export const countSchema = z.number().int().min(0);
export const pieceSchema = z.enum(PIECES);
export const piecesSchema = z.array(pieceSchema);

/**
 * At most `max` tuples of integers, each within its [lowest, highest]. Checked in one pass by hand
 * inside zod, which still names the first bad number by its path (`events.3.1`): zod's own tuples
 * left ~0.8 KB of garbage per element, a third of what a live server allocated per batch, and it
 * reads ten thousand batches a second.
 */
export function intTuples<T extends number[]>(bounds: ReadonlyArray<readonly [lowest: number, highest: number]>, max: number) {
  return z.custom<T[]>((v) => Array.isArray(v), { message: 'expected an array', abort: true }).superRefine((list, ctx) => {
    if (!Array.isArray(list)) return; // refused above; this only keeps a refine that runs anyway from throwing
    if (list.length > max) return ctx.addIssue({ code: 'custom', message: `at most ${max} items` });
    for (let i = 0; i < list.length; i++) {
      const item: unknown = list[i];
      if (!Array.isArray(item) || item.length !== bounds.length)
        return ctx.addIssue({ code: 'custom', path: [i], message: `expected a list of ${bounds.length} numbers` });
      for (let j = 0; j < bounds.length; j++) {
        const n: unknown = item[j];
        const [lowest, highest] = bounds[j]!;
        if (typeof n !== 'number' || !Number.isInteger(n) || n < lowest || n > highest)
          return ctx.addIssue({ code: 'custom', path: [i, j], message: `expected an integer from ${lowest} to ${highest}` });
      }
    }
  });
}

/**
 * One input: [tick, key index in KEYS, 1 down / 0 up]. Three numbers keep a batch small. Any key
 * of KEYS; a game's rules version may play fewer, and its host refuses the rest as bad inputs.
 */
export type WireEvent = [tick: number, key: number, down: 0 | 1];
/** Inputs, at most `max` of them (a batch's bound; a catch-up from the server holds a whole game's). */
export const wireEventsSchema = (max: number) => intTuples<WireEvent>([[0, MAX_TICK], [0, KEYS.length - 1], [0, 1]], max);

export const handlingSchema = z.object({
  das: z.number().int().min(DAS_MIN).max(DAS_MAX),
  arr: z.number().int().min(ARR_MIN).max(ARR_MAX),
  sdf: z.union([z.number().int().min(SDF_MIN).max(SDF_MAX), z.literal('instant')]),
  dasCut: z.boolean(),
});

/**
 * `tag`: a guest's short public tag (four hex digits), so two guests can be told apart; accounts have none.
 * `bot`: the seat is the server's sparring bot, at this pace and style (an older page reads it as a guest).
 */
export const livePlayerSchema = z.object({
  name: z.string().nullable(),
  guest: z.boolean(),
  tag: z.string().regex(/^[0-9A-F]{4}$/).optional().catch(undefined),
  bot: botSpecSchema.optional().catch(undefined),
});
export type LivePlayer = z.infer<typeof livePlayerSchema>;

/** A game's counters as the engine keeps them (GameStats). */
export const liveStatsSchema = z.object({ score: countSchema, lines: countSchema, level: countSchema, pieces: countSchema, tick: tickSchema });
export type LiveStats = z.infer<typeof liveStatsSchema>;
