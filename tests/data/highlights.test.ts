import { beforeEach, describe, expect, it } from 'vitest';
import { RANKED_MODE_NAMES } from '@/lib/engine';
import { getWeeklyTop } from '@/lib/server/games/highlights';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player } from '@/tests/data/play';

beforeEach(resetDb);

describe("this week's top games", () => {
  it('lists each mode’s weekly leaders, best first, without last week’s games', async () => {
    const [ann, ben, cat] = [await player('ann'), await player('ben'), await player('cat')];
    await playAndSubmit({ owner: ann, issuedAt: minutes(-7 * 24 * 60) }); // last week
    const benGame = await playAndSubmit({ owner: ben, issuedAt: minutes(0) });
    const catGame = await playAndSubmit({ owner: cat, issuedAt: minutes(10) });
    const top = await getWeeklyTop({ limit: 3, now: minutes(30) });
    // Every mode with boards, in the engine's order; Zen has none.
    expect(top.map((b) => [b.mode, b.week])).toEqual(RANKED_MODE_NAMES.map((m) => [m, '2026-W47']));
    expect(top.map((b) => b.mode)).not.toContain('zen');
    const sprint = top.find((b) => b.mode === 'sprint')!;
    const expected = [benGame, catGame]
      .sort((a, b) => a.played.result.ticks - b.played.result.ticks)
      .map((g) => g.ticket.gameId);
    expect(sprint.rows.map((r) => r.gameId)).toEqual(expected);
    expect(top.find((b) => b.mode === 'marathon')!.rows).toEqual([]);
  });
});
