// The board reads of `npm run bench:verify`, in two shapes.
// - Open loop: reads arrive at a stated rate whatever the server does, as players' result screens
//   do; each read's time runs from the moment it was due, not from when it was sent, so a server
//   (or a generator) that falls behind is charged for every read it kept waiting (no coordinated
//   omission).
// - Closed loop: a few readers read back to back. The server is then always busy with reads: this
//   measures a saturated queue, and is reported as saturation.
import { Player, type Timed } from '@/bench/load/client';

const BOARDS = ['sprint', 'marathon', 'ultra'] as const;
const pathOf = (i: number) => `/api/leaderboards/${BOARDS[i % BOARDS.length]}?limit=50`;

/** A read with the time it was due: `ms` is from `dueAt` to the answer. */
export type Read = Timed & { dueAt: number };

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));

/**
 * Reads at `rate` a second from now until `until` (a performance.now() instant), spread over
 * `clients` client addresses. Resolves when every read sent has been answered.
 */
export async function openLoopReads(base: string, rate: number, until: number, clients = 8): Promise<Read[]> {
  const readers = Array.from({ length: clients }, (_, i) => new Player(base, `192.0.2.${i + 1}`));
  const start = performance.now();
  const interval = 1000 / rate;
  const inFlight: Promise<Read>[] = [];
  for (let i = 0; ; i++) {
    const dueAt = start + i * interval;
    if (dueAt >= until) break;
    await sleepUntil(dueAt);
    inFlight.push(
      readers[i % clients]!.request(pathOf(i)).then(
        (r) => ({ ...r, ms: performance.now() - dueAt, dueAt }),
        () => ({ status: 0, ms: performance.now() - dueAt, body: null, headers: new Headers(), dueAt }),
      ),
    );
  }
  return Promise.all(inFlight);
}

/** `readers` clients reading back to back until `until` settles (saturation). */
export async function closedLoopReads(base: string, readers: number, until: Promise<unknown>): Promise<Read[]> {
  let done = false;
  void until.finally(() => (done = true));
  const results: Read[] = [];
  await Promise.all(
    Array.from({ length: readers }, async (_, i) => {
      const reader = new Player(base, `192.0.2.${i + 1}`);
      while (!done) {
        const dueAt = performance.now();
        results.push({ ...(await reader.request(pathOf(i))), dueAt });
      }
    }),
  );
  return results;
}

export { sleepUntil };
