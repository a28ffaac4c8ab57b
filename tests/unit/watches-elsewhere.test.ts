import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@/lib/live/protocol';
import { WatchesElsewhere } from '@/lib/server/live/match/watches-elsewhere';

// The bookkeeping behind one watch budget per socket across instances (decision 0018): what frees
// a place, and what a socket is passed, when answers name no request.
const catchUp = (matchId: string) => ({ t: 'vwatching', matchId }) as ServerMessage;
const refusal = (matchId: string) => ({ t: 'error', code: 'unknown_match', message: 'gone', gameId: matchId }) as ServerMessage;
const resumed = (matchId: string) => ({ t: 'vresumed', matchId }) as ServerMessage;

describe('matches a socket watches on other instances', () => {
  it('are counted from the request; a refusal frees the place only from where it was asked and before the answer', () => {
    const w = new WatchesElsewhere();
    w.asked('s', 'm1', 'A');
    w.asked('s', 'm2', 'A');
    expect(w.count('s')).toBe(2);
    expect(w.heard('s', 'B', refusal('m1'))).toBe(true);
    expect(w.count('s')).toBe(2);
    w.heard('s', 'A', refusal('m1'));
    expect(w.holds('s', 'm1')).toBe(false);
    expect(w.heard('s', 'A', catchUp('m2'))).toBe(true);
    // Answered: a refusal of another request naming it (a rematch nobody offered) frees nothing.
    w.heard('s', 'A', refusal('m2'));
    expect(w.count('s')).toBe(1);
  });

  it('a watch asked again while its host was unlisted a moment keeps waiting for its answer: the host’s refusal still frees it', () => {
    const w = new WatchesElsewhere();
    w.asked('s', 'm', 'A');
    expect(w.again('s', 'm')).toBe(true);
    w.asked('s', 'm', 'A');
    w.heard('s', 'A', refusal('m'));
    expect(w.count('s')).toBe(0);
  });

  it('a watch asked of a new host is aged from then: a host not listed yet is given a list’s time', () => {
    const w = new WatchesElsewhere();
    w.asked('s', 'm', 'A', 1_000);
    w.asked('s', 'm', 'B', 9_000);
    expect(w.lost(new Set(['A']), 5_000)).toEqual([]);
    expect(w.lost(new Set(['A']), 9_000)).toEqual([{ id: 's', matchId: 'm', at: 'B' }]);
    // Asked again of the same host, it keeps its age.
    w.asked('s', 'm', 'B', 20_000);
    expect(w.lost(new Set(['A']), 9_000)).toHaveLength(1);
  });

  it('a catch-up for a match the socket sits in passes uncounted only right after its resume there', () => {
    const w = new WatchesElsewhere();
    // A `vwatch` overtaken by a refusal of another request: its place is free, its catch-up is not passed.
    w.asked('s', 'mine', 'A');
    w.heard('s', 'A', refusal('mine'));
    expect(w.heard('s', 'A', catchUp('mine'))).toBe(false);
    // The seat's resume: the catch-up after it, from the same host, once.
    w.heard('s', 'B', resumed('mine'));
    expect(w.heard('s', 'A', catchUp('mine'))).toBe(false);
    w.heard('s', 'A', resumed('mine'));
    expect(w.heard('s', 'A', catchUp('mine'))).toBe(true);
    expect(w.heard('s', 'A', catchUp('mine'))).toBe(false);
    expect(w.count('s')).toBe(0);
  });

  it('unwatched before its answer: counted until the answer, which is not passed; a host found gone never revives it', () => {
    const w = new WatchesElsewhere();
    w.asked('s', 'm', 'A');
    w.unwatch('s', 'm');
    expect(w.count('s')).toBe(1);
    expect(w.again('s', 'm')).toBe(false);
    expect(w.count('s')).toBe(0);
    w.asked('s', 'n', 'A');
    w.unwatch('s', 'n');
    expect(w.heard('s', 'A', catchUp('n'))).toBe(false);
    expect(w.count('s')).toBe(0);
  });

  it('unwatched before an answer that never comes: its place is freed after a while, and the late answer is not passed', () => {
    const w = new WatchesElsewhere();
    w.asked('s', 'm', 'A', 1_000);
    w.asked('s', 'n', 'A', 1_000);
    w.unwatch('s', 'm');
    w.expire(5_000, 10_000);
    expect(w.count('s')).toBe(2);
    w.expire(12_000, 10_000);
    // Only the one the socket ended: the other may still be answered.
    expect(w.holds('s', 'm')).toBe(false);
    expect(w.holds('s', 'n')).toBe(true);
    expect(w.heard('s', 'A', catchUp('m'))).toBe(false);
  });

  it('a resume whose catch-up was lost lets no later catch-up through once its match is over', () => {
    const w = new WatchesElsewhere();
    w.heard('s', 'A', resumed('mine'));
    w.heard('s', 'A', { t: 'vover', matchId: 'mine' } as ServerMessage);
    expect(w.heard('s', 'A', catchUp('mine'))).toBe(false);
  });

  it('a wait for a take-up holds a place until it ends, and a `vunwatch` ends it', () => {
    const w = new WatchesElsewhere();
    w.wait('s', 'm');
    expect(w.holds('s', 'm')).toBe(true);
    w.unwatch('s', 'm');
    expect(w.stopWaiting('s', 'm')).toBe(false);
    expect(w.count('s')).toBe(0);
  });
});
