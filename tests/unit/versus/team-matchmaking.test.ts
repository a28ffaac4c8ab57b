import { describe, expect, it } from 'vitest';
import { MATCHMAKING } from '@/lib/server/versus/matchmaking';
import { teamUp, type TeamUnit } from '@/lib/server/versus/team-matchmaking';

const solo = (id: string, rating: number, since = 0): TeamUnit => ({ id, who: [id], rating, since });
const pair = (id: string, a: string, b: string, rating: number, since = 0): TeamUnit => ({ id, who: [a, b], rating, since });
const ids = (m: ReturnType<typeof teamUp>[number]) => m.map((team) => team.map((u) => u.id).sort());

describe('ranked 2v2 matchmaking (teamUp)', () => {
  it('a pair stays one team: its players are never split among the solos', () => {
    const [m, ...more] = teamUp([pair('P', 'a', 'b', 1500, 0), solo('x', 1450, 1), solo('y', 1550, 2)], 3);
    expect(more).toEqual([]);
    expect(ids(m!)).toEqual([['P'], ['x', 'y']]);
  });

  it('four solos make the two teams whose means are closest', () => {
    const [m] = teamUp([solo('a', 1500, 0), solo('b', 1600, 1), solo('c', 1400, 2), solo('d', 1500, 3)], 4);
    // a+d (1500) against b+c (1500), not a+b (1550) against c+d (1450).
    expect(ids(m!)).toEqual([['a', 'd'], ['b', 'c']]);
  });

  it('waits for players within the window, which widens with the wait; anyone after anyoneAfterMs', () => {
    const far = [solo('a', 1500, 0), solo('b', 1500, 0), solo('c', 1500, 0), solo('d', 2300, 0)];
    expect(teamUp(far, 0)).toEqual([]);
    expect(teamUp(far, 10_000)).toEqual([]);
    expect(teamUp(far, MATCHMAKING.anyoneAfterMs)).toHaveLength(1);
  });

  it('never one player twice (two tabs, or a solo who is also in a pair), never three players', () => {
    expect(teamUp([pair('P', 'a', 'b', 1500), solo('a', 1500), solo('c', 1500)], 0)).toEqual([]);
    expect(teamUp([solo('a', 1500), solo('b', 1500), solo('c', 1500)], 0)).toEqual([]);
    expect(teamUp([pair('P', 'a', 'b', 1500), pair('Q', 'c', 'd', 1500), solo('e', 1500)], 0).map(ids)).toEqual([[['P'], ['Q']]]);
  });
});
