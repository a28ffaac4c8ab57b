import 'server-only';
import { saveAckCheckpoints, type CheckpointRow } from '@/lib/server/live/store';

/**
 * The ack checkpoints of this process's live games, written together. Each game asks for one at
 * most every PACING.checkpointEveryMs; those asked for within GATHER_MS go in one statement, so
 * 1,000 games cost a few writes a second instead of 500 (docs/decisions/0010 has the numbers).
 * A game's promise settles when the statement holding its row does.
 */
const GATHER_MS = 100;

type Waiting = { row: CheckpointRow; settle: Array<{ resolve: () => void; reject: (error: unknown) => void }> };

let waiting = new Map<string, Waiting>();
let timer: NodeJS.Timeout | null = null;

export function writeAckCheckpoint(row: CheckpointRow): Promise<void> {
  return new Promise((resolve, reject) => {
    const held = waiting.get(row.gameId);
    // Two asks for one game in a window (a host handed over and back): the later state wins.
    if (held) {
      if (row.checkpoint.tick >= held.row.checkpoint.tick) held.row = row;
      held.settle.push({ resolve, reject });
    } else waiting.set(row.gameId, { row, settle: [{ resolve, reject }] });
    timer ??= setTimeout(flush, GATHER_MS);
  });
}

async function flush(): Promise<void> {
  timer = null;
  const batch = [...waiting.values()];
  waiting = new Map();
  try {
    await saveAckCheckpoints(batch.map((w) => w.row));
    for (const w of batch) for (const s of w.settle) s.resolve();
  } catch (error) {
    for (const w of batch) for (const s of w.settle) s.reject(error);
  }
}
