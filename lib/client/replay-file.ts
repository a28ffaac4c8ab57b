import { decodeReplay, ReplayDecodeError, type Replay } from '@/lib/engine';
import { MAX_REPLAY_FILE_BYTES, replayFileSchema, type ReplayFile } from '@/lib/validations/replay-file';

export class ReplayFileError extends Error {
  override readonly name = 'ReplayFileError';
}

/** The file a replay downloads as: small JSON around the same base64url text the server stores. */
export function replayFileText(replay: string, game?: ReplayFile['game']): string {
  const file: ReplayFile = { linefall: 'replay', version: 1, replay, ...(game ? { game } : {}) };
  return `${JSON.stringify(file, null, 1)}\n`;
}

export function replayFileName(mode: string, player: string | null, gameId: string): string {
  return `linefall-${mode}-${(player ?? 'guest').replace(/[^A-Za-z0-9_-]/g, '')}-${gameId}.json`;
}

const DECODE_MESSAGES: Record<ReplayDecodeError['code'], string> = {
  bad_encoding: 'its replay text is not base64url',
  bad_magic: 'its replay does not start like a Linefall replay',
  unsupported_version: 'its replay was made by a newer version of Linefall',
  truncated: 'its replay is cut short',
  too_large: 'its replay is larger than any game can be',
  invalid_field: 'its replay has a field out of range',
  trailing_data: 'its replay has data after the end',
};

/**
 * Reads a replay file (or a bare replay text pasted into a file) and checks that it decodes; any
 * problem becomes a ReplayFileError whose message says what is wrong in words.
 */
export function readReplayFile(text: string, size = text.length): { file: ReplayFile; replay: Replay } {
  if (size > MAX_REPLAY_FILE_BYTES) throw new ReplayFileError('This file is too large to be a Linefall replay.');
  const trimmed = text.trim();
  let file: ReplayFile;
  if (trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      throw new ReplayFileError('This file is not a Linefall replay: it is not valid JSON.');
    }
    const parsed = replayFileSchema.safeParse(json);
    if (!parsed.success) throw new ReplayFileError('This file is not a Linefall replay: it lacks the replay or its fields are wrong.');
    file = parsed.data;
  } else if (/^[A-Za-z0-9_-]+$/.test(trimmed)) file = { linefall: 'replay', version: 1, replay: trimmed };
  else throw new ReplayFileError('This file is not a Linefall replay.');
  try {
    return { file, replay: decodeReplay(file.replay) };
  } catch (error) {
    if (error instanceof ReplayDecodeError) throw new ReplayFileError(`This file cannot be played: ${DECODE_MESSAGES[error.code]}.`);
    throw error;
  }
}
