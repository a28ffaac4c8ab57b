import { describe, expect, it } from 'vitest';
import { decodeReplay, encodeReplay, VersusMatch, type VersusMode } from '@/lib/engine';
import { recordOf, verifyMatch, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

function played(mode: VersusMode, seed: string): VersusMatchRecord {
  const match = new VersusMatch({ mode, seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
  return recordOf(match, seed, mode);
}

const battle = played('battle', 'verify-1');
const race = played('race30', 'verify-2');
/** A copy with one game changed. */
const withGame = (r: VersusMatchRecord, i: number, change: Partial<VersusMatchRecord['games'][number]>): VersusMatchRecord => ({
  ...r,
  games: r.games.map((g, j) => (j === i ? { ...g, ...change } : g)),
});
/** The game in which seat `s` received garbage, or -1. */
const gameWithGarbage = (r: VersusMatchRecord, s: 0 | 1) => r.games.findIndex((g) => decodeReplay(g.replays[s]).garbage!.length > 0);

describe('verifying a finished versus match', () => {
  it('accepts what the referee played, in both modes, with the set score it reports', () => {
    for (const r of [battle, race]) {
      const v = verifyMatch(r);
      expect(v).toMatchObject({ ok: true, mode: r.mode });
      if (v.ok) expect(Math.max(...v.score)).toBe(r.firstTo);
    }
  });

  it('refuses a swapped winner, a moved deciding tick, and a set that went on after it was won', () => {
    const g = battle.games[0]!;
    const flipped = g.winnerSeat === 0 ? 1 : 0;
    expect(verifyMatch(withGame(battle, 0, { winnerSeat: flipped }))).toMatchObject({ ok: false, code: 'outcome_mismatch' });
    expect(verifyMatch(withGame(battle, 0, { endTick: g.endTick - 1 }))).toMatchObject({ ok: false, code: 'outcome_mismatch' });
    expect(verifyMatch({ ...battle, games: [...battle.games, battle.games.at(-1)!] })).toMatchObject({ ok: false, code: 'score_mismatch' });
    expect(verifyMatch({ ...battle, winnerSeat: battle.winnerSeat === 0 ? 1 : 0 })).toMatchObject({ ok: false, code: 'score_mismatch' });
  });

  it('refuses garbage the other replay never sent: a client cannot claim an attack', () => {
    const i = Math.max(gameWithGarbage(battle, 0), 0);
    const replay = decodeReplay(battle.games[i]!.replays[0]);
    const forged = encodeReplay({ ...replay, garbage: [{ tick: 1, size: 4 }, ...replay.garbage!] });
    expect(verifyMatch(withGame(battle, i, { replays: [forged, battle.games[i]!.replays[1]] }))).toMatchObject({ ok: false, code: 'garbage_mismatch' });
  });

  it('refuses replays of another seed, mode or rules, and undecodable ones', () => {
    const g = battle.games[0]!;
    const r = decodeReplay(g.replays[0]);
    expect(verifyMatch(withGame(battle, 0, { replays: [encodeReplay({ ...r, seed: 'other' }), g.replays[1]] }))).toMatchObject({ code: 'replay_mismatch' });
    expect(verifyMatch(withGame(battle, 0, { replays: [encodeReplay({ ...r, mode: 'race30' }), g.replays[1]] }))).toMatchObject({ code: 'replay_mismatch' });
    expect(verifyMatch(withGame(battle, 0, { replays: ['nope', g.replays[1]] }))).toMatchObject({ code: 'replay_undecodable' });
    expect(verifyMatch({ ...battle, mode: 'sprint' })).toMatchObject({ code: 'invalid_match' });
  });

  it('refuses a replay played from the other seat (rules 6 give each seat its own holes)', () => {
    const g = battle.games[0]!;
    const r = [decodeReplay(g.replays[0]), decodeReplay(g.replays[1])];
    expect(r.map((x) => x.seat)).toEqual([0, 1]);
    const swapped = [encodeReplay({ ...r[0]!, seat: 1 }), encodeReplay({ ...r[1]!, seat: 0 })] as [string, string];
    expect(verifyMatch(withGame(battle, 0, { replays: swapped }))).toMatchObject({ ok: false, code: 'replay_mismatch' });
  });

  it('accepts a forfeit that ends the set, and only on a forfeited game', () => {
    const match = new VersusMatch({ mode: 'battle', seed: 'left', handling: [HANDLING, HANDLING] });
    match.forfeit(0);
    const r = recordOf(match, 'left', 'battle');
    expect(verifyMatch(r)).toMatchObject({ ok: true, score: [0, 1] });
    expect(verifyMatch({ ...r, endReason: 'games' })).toMatchObject({ ok: false, code: 'score_mismatch' });
  });
});
