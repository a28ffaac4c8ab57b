import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/server/db';
import { IN_FLIGHT } from '@/lib/server/games/in-flight';
import { verifyPool } from '@/lib/server/verify-pool';
import { resetDb } from '@/tests/data/db';
import { player, playAndSubmit } from '@/tests/data/play';

beforeEach(resetDb);
afterEach(() => vi.restoreAllMocks());

// A burst of submissions let in together puts all of their statements ahead of every board read at
// the database (docs/capacity.md, bench:verify): only IN_FLIGHT.width of them are past the gate at
// once, the others wait their turn, and every game is still stored, once.
describe('submissions in flight', () => {
  it(`lets ${IN_FLIGHT.width} clients' submissions verify and store at once; the rest wait and are all stored`, async () => {
    const burst = IN_FLIGHT.width + 4;
    const pool = verifyPool();
    const run = pool.run.bind(pool);
    let verifying = 0;
    let most = 0;
    // Each verification is held until the whole burst has arrived or a moment has passed, so that
    // without the gate every submission would be verifying at once.
    // (The integrity rows' jobs after each store are not submissions: not counted.)
    vi.spyOn(pool, 'run').mockImplementation((async (name: 'solo', input: never, options: never) => {
      if (name !== 'solo') return run(name, input, options);
      most = Math.max(most, ++verifying);
      try {
        await new Promise((r) => setTimeout(r, verifying >= burst ? 0 : 150));
        return await run(name, input, options);
      } finally {
        verifying--;
      }
    }) as never);
    const owners = await Promise.all(Array.from({ length: burst }, (_, i) => player(`burst${i}`)));
    const outcomes = await Promise.all(owners.map((owner) => playAndSubmit({ owner, mode: 'sprint', live: false })));
    expect(outcomes.map((o) => o.outcome)).toEqual(owners.map(() => expect.objectContaining({ ok: true, status: 202 })));
    expect(most).toBe(IN_FLIGHT.width);
    const db = await getDb();
    expect(await db.game.count()).toBe(burst);
  });
});
