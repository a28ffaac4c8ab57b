import { z } from 'zod';
import { MAX_REPLAY_ENCODED_LENGTH, MODE_NAMES } from '@/lib/engine';
import { isValidIsoWeek } from '@/lib/periods/weeks';

export const modeSchema = z.enum(MODE_NAMES, { error: `mode must be one of ${MODE_NAMES.join(', ')}` });

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

/** GET /api/leaderboards/{mode} */
export const boardQuerySchema = z.object({
  mode: modeSchema,
  period: z.enum(['all', 'week'], { error: 'period must be all or week' }).default('all'),
  week: z
    .string()
    .refine(isValidIsoWeek, 'week must be an ISO week like 2026-W47')
    .optional(),
  cursor: z.string().max(200, 'cursor is invalid').optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type BoardQuery = z.infer<typeof boardQuerySchema>;

/** Ids in URLs: cuid-like, bounded before any lookup. */
export const idSchema = z.string().regex(/^[a-z0-9]{8,40}$/, 'not a game id');
