import { z } from 'zod';
import { MAX_REPLAY_ENCODED_LENGTH } from '@/lib/engine';
import { idSchema } from '@/lib/validations/games';

/** What a downloaded replay file says besides the replay: where it came from, for the viewer's title. */
export const replayFileSchema = z.object({
  linefall: z.literal('replay'),
  version: z.literal(1),
  replay: z.string().max(MAX_REPLAY_ENCODED_LENGTH),
  game: z
    .object({
      id: idSchema,
      player: z.string().max(40).nullable(),
      createdAt: z.string().max(40),
    })
    .optional(),
});
export type ReplayFile = z.infer<typeof replayFileSchema>;

/** A file larger than this is not one of ours: the replay's cap plus room for the wrapper. */
export const MAX_REPLAY_FILE_BYTES = MAX_REPLAY_ENCODED_LENGTH + 4096;
