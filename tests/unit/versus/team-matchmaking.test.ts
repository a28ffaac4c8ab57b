import { describe, expect, it } from 'vitest';
import { MATCHMAKING } from '@/lib/server/versus/matchmaking';
import { TEAM_GAP, teamRating, teamUp, type TeamUnit } from '@/lib/server/versus/team-matchmaking';

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

describe('ranked 2v2 matchmaking: the ranked rules kept apart', () => {
  const on = (u: TeamUnit, apart: string[], avoid: string[] = []): TeamUnit => ({ ...u, apart, avoid });

  it('two teams sharing an address or device key are never opponents; one team may share', () => {
    // A pair from one home against two solos, one of them on that home's address: no match.
    const shared = [on(pair('P', 'a', 'b', 1500), ['address:home', 'device:1']), on(solo('x', 1500, 1), ['address:home']), on(solo('y', 1500, 2), ['address:y'])];
    expect(teamUp(shared, MATCHMAKING.anyoneAfterMs)).toEqual([]);
    // A pair's own two members may share one (friends at one home): only the opponents matter.
    const friends = [on(pair('P', 'a', 'b', 1500), ['address:home']), on(solo('x', 1500, 1), ['address:x']), on(solo('y', 1500, 2), ['address:y'])];
    expect(teamUp(friends, 0).map(ids)).toEqual([[['P'], ['x', 'y']]]);
    // Four solos, two of one device: put on one team, never against each other.
    const solos = [on(solo('a', 1500), ['device:9']), on(solo('b', 1600, 1), ['device:9']), on(solo('c', 1400, 2), []), on(solo('d', 1500, 3), [])];
    expect(teamUp(solos, 0).map(ids)).toEqual([[['a', 'b'], ['c', 'd']]]);
  });

  it('a player on an opponent\'s avoid list is never met, whichever of the two holds it', () => {
    const units = [on(pair('P', 'a', 'b', 1500), [], ['x']), solo('x', 1500, 1), solo('y', 1500, 2)];
    expect(teamUp(units, MATCHMAKING.anyoneAfterMs)).toEqual([]);
    const theirs = [pair('P', 'a', 'b', 1500), on(solo('x', 1500, 1), [], ['b']), solo('y', 1500, 2)];
    expect(teamUp(theirs, MATCHMAKING.anyoneAfterMs)).toEqual([]);
  });
});

describe('ranked 2v2 matchmaking: a team counted near its stronger player', () => {
  it('teamRating lifts the weaker player to within TEAM_GAP of the stronger', () => {
    expect(teamRating([1500, 1500])).toBe(1500);
    expect(teamRating([1600, 1500])).toBe(1550);
    expect(teamRating([2200, 1000])).toBe(2200 - TEAM_GAP / 2);
  });
});
