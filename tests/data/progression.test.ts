import { beforeEach, describe, expect, it } from 'vitest';
import { MODE_NAMES } from '@/lib/engine';
import { getBestProgression } from '@/lib/server/games/progression';
import { getUserByUsername } from '@/lib/server/users';
import { playGame } from '@/tests/support/bot';
import { FAST_HUMAN } from '@/tests/support/human';
import { hardDropGame, idleGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player } from '@/tests/data/play';

beforeEach(resetDb);

describe('personal-best progression', () => {
  it('keeps, per mode and in time order, only the games that beat every earlier one', async () => {
    const ann = await player('ann');
    const other = await player('other');
    const sprints: Array<{ id: string; ticks: number }> = [];
    // Slower and faster bot games (target ticks per piece) with human timing, so none is held for
    // review: PBs at 180, 150 and 100.
    for (const [i, pace] of [180, 150, 170, 100, 120].entries()) {
      const { ticket, played, outcome } = await playAndSubmit({ owner: ann, issuedAt: minutes(i * 10), after: 9, play: (mode, seed) => playGame({ mode, seed, pace, human: FAST_HUMAN }) });
      expect(outcome.ok).toBe(true);
      sprints.push({ id: ticket.gameId, ticks: played.result.ticks });
    }
    // A topped-out Sprint has no time, so it is never a best; nor is another player's game.
    await playAndSubmit({ owner: ann, issuedAt: minutes(60), play: idleGame, after: 30 });
    await playAndSubmit({ owner: other, issuedAt: minutes(5) });
    const marathon = await playAndSubmit({ owner: ann, mode: 'marathon', play: hardDropGame, issuedAt: minutes(70) });

    let best = Infinity;
    const expected = sprints.filter((g) => g.ticks < best && ((best = g.ticks), true)).map((g) => g.id);
    // Some games are improvements and some are not.
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(sprints.length);

    const progression = await getBestProgression({ userId: ann.userId! });
    expect(progression.sprint.map((p) => p.gameId)).toEqual(expected);
    expect(progression.sprint.map((p) => p.ticks)).toEqual([...progression.sprint.map((p) => p.ticks)].sort((a, b) => b - a));
    expect(progression.marathon).toEqual([
      { gameId: marathon.ticket.gameId, at: expect.any(String), score: marathon.played.result.score, ticks: marathon.played.result.ticks, clears: 0 },
    ]);
    expect(progression.ultra).toEqual([]);

    // Bounded: only each mode's latest games are read (here the last two Sprints, paces 100 and 120).
    const bounded = await getBestProgression({ userId: ann.userId!, recent: 2 });
    expect(bounded.sprint.map((p) => p.gameId)).toEqual([sprints[3]!.id]);
  });

  it('is empty for a player with no games', async () => {
    const nobody = await player('nobody');
    // One empty list per solo mode, whatever modes there are.
    expect(await getBestProgression({ userId: nobody.userId! })).toEqual(Object.fromEntries(MODE_NAMES.map((m) => [m, []])));
  });
});

describe('profiles by username', () => {
  it('finds a player whatever the case, and nobody for an unknown name', async () => {
    await player('MixedCase');
    expect(await getUserByUsername({ username: 'mixedcase' })).toMatchObject({ username: 'MixedCase', createdAt: expect.any(Date) });
    expect(await getUserByUsername({ username: 'ghost' })).toBeNull();
  });
});
