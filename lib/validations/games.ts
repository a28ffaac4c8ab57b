import { z } from 'zod';
import { MAX_REPLAY_ENCODED_LENGTH, RANKED_MODE_NAMES, type Mode } from '@/lib/engine';
import { isBucket, PERIOD_IDS, PERIODS, type PeriodId } from '@/lib/periods';

/** A mode with boards: what a ticket, a board, a best or a replay list may name (Zen is practice only, never sent). */
export const modeSchema = z.enum(RANKED_MODE_NAMES as [Mode, ...Mode[]], { error: `mode must be one of ${RANKED_MODE_NAMES.join(', ')}` });

/** POST /api/games */
export const ticketRequestSchema = z.object({ mode: modeSchema });

const count = z.number().int().min(0).max(2_147_483_647);

/** POST /api/games/{gameId}/replay — the replay and the result the browser saw. */
export const submissionSchema = z.object({
  replay: z
    .string()
    .min(1, 'replay is empty')
    .max(MAX_REPLAY_ENCODED_LENGTH, `replay exceeds ${MAX_REPLAY_ENCODED_LENGTH} characters`),
  claimed: z.object({ score: count, lines: count, ticks: count }),
});
export type Submission = z.infer<typeof submissionSchema>;

/** The largest body a submission can have: the replay cap plus room for the rest. */
export const SUBMISSION_BODY_LIMIT = MAX_REPLAY_ENCODED_LENGTH + 1024;

export const periodSchema = z.enum(PERIOD_IDS, { error: `period must be one of ${PERIOD_IDS.join(', ')}` });

/** `?week=2026-W47`, `?day=2026-11-22`: one optional parameter per period, named after it, picking a past board. */
const bucketParams = Object.fromEntries(
  PERIOD_IDS.map((period) => [
    period,
    z
      .string()
      .max(32, `${period} is invalid`)
      .refine((text) => isBucket(period, text), `${period} must look like ${PERIODS[period].example}`)
      .optional(),
  ]),
) as Record<PeriodId, z.ZodOptional<z.ZodString>>;

/** GET /api/leaderboards/{mode}?period=…&<period>=<bucket> */
export const boardQuerySchema = z
  .object({
    mode: modeSchema,
    period: periodSchema.default('all'),
    ...bucketParams,
    cursor: z.string().max(200, 'cursor is invalid').optional(),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  })
  .transform((q) => ({ mode: q.mode, period: q.period, bucket: q[q.period], cursor: q.cursor, limit: q.limit }));
export type BoardQuery = z.output<typeof boardQuerySchema>;

/** Ids in URLs: cuid-like, bounded before any lookup. */
export const idSchema = z.string().regex(/^[a-z0-9]{8,40}$/, 'not a game id');
