import 'server-only';
import { giveUpLiveGames, saveAckCheckpoints, type CheckpointRow } from '@/lib/server/live/solo/checkpoints';

/**
 * Writes asked for within `windowMs` of each other, done as one: a burst of live games asking at
 * once (checkpoints, or thousands of players given up together after a network blip) costs a few
 * statements instead of one each, and never holds the event loop for a second. Two asks with one
 * key in a window are merged; every ask's promise settles when the write holding it does.
 */
function gathered<V>(write: (values: V[]) => Promise<void>, options: { windowMs: number; merge: (held: V, next: V) => V }) {
  type Waiting = { value: V; settle: Array<{ resolve: () => void; reject: (error: unknown) => void }> };
  let waiting = new Map<string, Waiting>();
  let timer: NodeJS.Timeout | null = null;

  async function flush(): Promise<void> {
    timer = null;
    const batch = [...waiting.values()];
    waiting = new Map();
    try {
      await write(batch.map((w) => w.value));
      for (const w of batch) for (const s of w.settle) s.resolve();
    } catch (error) {
      for (const w of batch) for (const s of w.settle) s.reject(error);
    }
  }

  return (key: string, value: V): Promise<void> =>
    new Promise((resolve, reject) => {
      const held = waiting.get(key);
      if (held) {
        held.value = options.merge(held.value, value);
        held.settle.push({ resolve, reject });
      } else waiting.set(key, { value, settle: [{ resolve, reject }] });
      timer ??= setTimeout(() => void flush(), options.windowMs);
    });
}

/** Long enough to gather a burst, short against PACING.checkpointEveryMs and the resume window. */
const GATHER_MS = 100;

/**
 * The ack checkpoints of this process's live games, written together. Each game asks for one at
 * most every PACING.checkpointEveryMs; those asked for within GATHER_MS go in one statement, so
 * 1,000 games cost a few writes a second instead of 500 (docs/decisions/0010 has the numbers).
 * Two asks for one game in a window (a host handed over and back): the later state wins.
 */
const checkpoints = gathered(saveAckCheckpoints, {
  windowMs: GATHER_MS,
  merge: (held, next) => (next.checkpoint.tick >= held.checkpoint.tick ? next : held),
});
export const writeAckCheckpoint = (row: CheckpointRow): Promise<void> => checkpoints(row.gameId, row);

/**
 * Games given up (their player gone past the resume window), marked together: players who drop
 * together (a proxy restart, a network blip) are given up together 30 s later, and one write each
 * held the event loop for over a second at 600 games.
 */
const givenUp = gathered((gameIds: string[]) => giveUpLiveGames({ gameIds }), { windowMs: GATHER_MS, merge: (held) => held });
export const giveUpLiveGame = (gameId: string): Promise<void> => givenUp(gameId, gameId);
