import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_REPLAY_EVENTS, VersusMatch, type InputEvent } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { getVersusRating, getWeeklyWinsBoard } from '@/lib/server/versus/boards';
import { NO_CONTEST, NEW_PLAYER_RATING, rateMatch, storedRating } from '@/lib/server/versus/rating';
import { storeMatch } from '@/lib/server/versus/store';
import { getMatchHistory, getRatingHistory } from '@/lib/server/versus/history';
import { getStoredMatch } from '@/lib/server/versus/matches';
import { voidMatch } from '@/lib/server/versus/void';
import { listActions } from '@/lib/server/moderation/audit';
import { decide } from '@/lib/server/moderation/decide';
import { moderationActionSchema } from '@/lib/validations/moderation';
import { recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { resetDb } from '@/tests/data/db';
import { minutes, player, T0 } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

/** A ranked set in which seat 1 leaves once it has locked `pieces` pieces (or the first game ends). */
function leftAfter(seed: string, pieces: number): VersusMatchRecord {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  const bots = [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.1 })] as const;
  const game = match.current;
  for (let t = 0; !game.outcome && game.game(1).snapshot().pieces < pieces && t < 30_000; t++) {
    for (const p of [0, 1] as const) game.tick(p, bots[p].inputs(game, p), bots[p].acks(game, p));
  }
  match.forfeit(1);
  return recordOf(match, seed, 'battle');
}

const rated = (() => {
  const r = rateMatch(NEW_PLAYER_RATING, NEW_PLAYER_RATING);
  return { winner: storedRating(r.winner), loser: storedRating(r.loser) };
})();

beforeEach(resetDb);

describe('no contest', () => {
  it('a leaver with fewer pieces than the rule: the winner gains nothing and no weekly win; the leaver still loses', async () => {
    expect(NO_CONTEST.minLeaverPieces).toBe(5);
    const [ann, ben] = [await player('ann'), await player('ben')];
    const record = leftAfter('countdown-leave', 0);
    expect(record).toMatchObject({ endReason: 'forfeit', winnerSeat: 0 });
    expect(await storeMatch({ matchId: 'nc', record, seats: [ann, ben], ranked: true, now: T0 })).toMatchObject({
      ok: true,
      ratings: [{ before: NEW_PLAYER_RATING, after: NEW_PLAYER_RATING }, { before: NEW_PLAYER_RATING, after: rated.loser }],
    });
    const db = await getDb();
    expect(await db.versusMatch.findUnique({ where: { id: 'nc' }, select: { noContest: true, endReason: true } })).toEqual({ noContest: true, endReason: 'forfeit' });
    expect(await getVersusRating({ userId: ann.userId!, mode: 'battle' })).toMatchObject({ rating: 1500, matches: 0, wins: 0 });
    expect(await getVersusRating({ userId: ben.userId!, mode: 'battle' })).toMatchObject({ rating: rated.loser.rating, matches: 1 });
    expect((await getWeeklyWinsBoard({ mode: 'battle', limit: 10, now: minutes(1) })).rows).toEqual([]);
  });

  it('a leaver who played the pieces the rule asks for: a full win', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    const record = leftAfter('midgame-leave', NO_CONTEST.minLeaverPieces);
    expect(await storeMatch({ matchId: 'full', record, seats: [ann, ben], ranked: true, now: T0 })).toMatchObject({ ok: true });
    const db = await getDb();
    expect(await db.versusMatch.findUnique({ where: { id: 'full' }, select: { noContest: true } })).toEqual({ noContest: false });
    expect(await getVersusRating({ userId: ann.userId!, mode: 'battle' })).toMatchObject({ rating: rated.winner.rating, matches: 1, wins: 1 });
    expect((await getWeeklyWinsBoard({ mode: 'battle', limit: 10, now: minutes(1) })).rows.map((r) => r.player.username)).toEqual(['ann']);
  });
});

describe('a replay that cannot be stored', () => {
  it('loses the match for its own seat: the result and its rating are recorded, not dropped', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    // Ben pads his stream past what a replay can hold, then loses: his replay cannot be encoded.
    const match = new VersusMatch({ mode: 'battle', seed: 'padded', handling: [HANDLING, HANDLING] });
    const game = match.current;
    const padding: InputEvent[] = Array.from({ length: 2_000 }, (_, i) => ({ key: 'left', down: i % 2 === 0 }));
    for (let t = 0; t < Math.ceil((MAX_REPLAY_EVENTS + 10) / padding.length); t++) {
      game.tick(0, [], []);
      game.tick(1, padding, []);
    }
    match.forfeit(1);
    const record = recordOf(match, 'padded', 'battle');
    expect(record.games[0]!.replays[1]).toBe('');
    expect(await storeMatch({ matchId: 'padded', record, seats: [ann, ben], ranked: true, now: T0 })).toMatchObject({ ok: true, repeated: false });
    const db = await getDb();
    expect(await db.versusMatch.findUnique({ where: { id: 'padded' }, select: { winnerSeat: true, endReason: true, noContest: true, games: true } })).toEqual({
      winnerSeat: 0, endReason: 'unstorable', noContest: true, games: [],
    });
    expect(await getVersusRating({ userId: ben.userId!, mode: 'battle' })).toMatchObject({ rating: rated.loser.rating, matches: 1 });
  });

  it('of the winner: the winner forfeits, even one who had won the set', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    const match = new VersusMatch({ mode: 'battle', seed: 'whole-set', handling: [HANDLING, HANDLING] });
    playMatch(match, [new VersusBot({ seed: 'w/a', mistakes: 0.1 }), new VersusBot({ seed: 'w/b', mistakes: 0.3, pace: 4 })]);
    const good = recordOf(match, 'whole-set', 'battle');
    const w = good.winnerSeat;
    // The winner's last replay is over the decoder's size limit.
    const last = good.games.length - 1;
    const oversized: VersusMatchRecord = {
      ...good,
      games: good.games.map((g, i) => (i === last ? { ...g, replays: (w === 0 ? ['A'.repeat(200_000), g.replays[1]] : [g.replays[0], 'A'.repeat(200_000)]) as [string, string] } : g)),
    };
    expect(await storeMatch({ matchId: 'big', record: oversized, seats: [ann, ben], ranked: true, now: T0 })).toMatchObject({ ok: true });
    const db = await getDb();
    expect(await db.versusMatch.findUnique({ where: { id: 'big' }, select: { winnerSeat: true, endReason: true } })).toEqual({ winnerSeat: w === 0 ? 1 : 0, endReason: 'unstorable' });
    expect((await db.versusSeat.findMany({ where: { matchId: 'big' }, orderBy: { seat: 'asc' }, select: { won: true } })).map((s) => s.won)).toEqual([w !== 0, w === 0]);
  });

  it('of both seats: nothing is stored, as before', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    const record = leftAfter('both-bad', 10);
    const both: VersusMatchRecord = { ...record, games: record.games.map((g) => ({ ...g, replays: ['', ''] as [string, string] })) };
    expect(await storeMatch({ matchId: 'both', record: both, seats: [ann, ben], ranked: true, now: T0 })).toMatchObject({ ok: false, code: 'replay_undecodable' });
    const db = await getDb();
    expect(await db.versusMatch.count()).toBe(0);
  });
});

describe('voiding a match', () => {
  const mod = { id: null, name: 'mod' };

  it('takes back its rating changes (the inverse applied to the rating as it is now) and the weekly win, once, logged', async () => {
    const [ann, ben, cat] = [await player('ann'), await player('ben'), await player('cat')];
    const first = botSet('void-1');
    const seatsOf = (record: VersusMatchRecord, a: typeof ann, b: typeof ann) => (record.winnerSeat === 0 ? [a, b] : [b, a]) as [typeof ann, typeof ann];
    // Ann wins both: the first against Ben, then one against Cat.
    const out1 = await storeMatch({ matchId: 'v1', record: first, seats: seatsOf(first, ann, ben), ranked: true, now: T0 });
    const second = botSet('void-2');
    await storeMatch({ matchId: 'v2', record: second, seats: seatsOf(second, ann, cat), ranked: true, now: minutes(5) });
    if (!out1.ok || !out1.ratings) throw new Error('not stored');
    const annSeat = first.winnerSeat;
    const annDelta = out1.ratings[annSeat].after.rating - out1.ratings[annSeat].before.rating;
    const annNow = await getVersusRating({ userId: ann.userId!, mode: 'battle' });

    expect(await voidMatch({ matchId: 'v1', reason: 'win trading', actor: mod, now: minutes(10) })).toEqual({ ok: true, changed: true });
    const annAfter = await getVersusRating({ userId: ann.userId!, mode: 'battle' });
    expect(annAfter.rating).toBeCloseTo(annNow.rating - annDelta, 6);
    expect(annAfter).toMatchObject({ matches: 1, wins: 1 });
    // Ben played only the voided match: he is back where he started.
    expect(await getVersusRating({ userId: ben.userId!, mode: 'battle' })).toMatchObject({ rating: 1500, rd: 350, matches: 0, wins: 0 });
    expect((await getWeeklyWinsBoard({ mode: 'battle', limit: 10, now: minutes(11) })).rows.map((r) => [r.player.username, r.wins])).toEqual([['ann', 1]]);

    const history = await getMatchHistory({ userId: ann.userId!, limit: 10 });
    expect(history.entries.map((e) => [e.matchId, e.voided])).toEqual([['v2', false], ['v1', true]]);
    expect((await getRatingHistory({ userId: ann.userId!, mode: 'battle', limit: 10 })).map((p) => p.matchId)).toEqual(['v2']);
    expect(await getStoredMatch({ matchId: 'v1' })).toMatchObject({ voided: { reason: 'win trading' } });

    // Again: nothing changes, nothing is logged twice.
    expect(await voidMatch({ matchId: 'v1', reason: 'again', actor: mod, now: minutes(12) })).toEqual({ ok: true, changed: false });
    expect((await getVersusRating({ userId: ann.userId!, mode: 'battle' })).rating).toBe(annAfter.rating);
    expect((await listActions({ limit: 10 })).map((a) => [a.action, a.matchId, a.reason])).toEqual([['void', 'v1', 'win trading']]);
    expect(await voidMatch({ matchId: 'nosuch', reason: 'x', actor: mod })).toMatchObject({ ok: false, code: 'match_not_found' });
  });

  it('is not for a moderator who played it; a no-contest win is not taken off the winner’s count', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    await storeMatch({ matchId: 'nc', record: leftAfter('void-nc', 0), seats: [ann, ben], ranked: true, now: T0 });
    expect(await voidMatch({ matchId: 'nc', reason: 'mine', actor: { id: ann.userId!, name: 'ann' } })).toMatchObject({ ok: false, code: 'own_match', status: 403 });
    // Through the moderators' route's decision, as /versus/matches/{id} sends it.
    expect(await decide({ actor: mod, input: moderationActionSchema.parse({ action: 'void', matchId: 'nc', reason: 'left at once' }) })).toEqual({ ok: true, action: 'void' });
    expect(await getVersusRating({ userId: ann.userId!, mode: 'battle' })).toMatchObject({ rating: 1500, matches: 0, wins: 0 });
    expect(await getVersusRating({ userId: ben.userId!, mode: 'battle' })).toMatchObject({ rating: 1500, rd: 350, matches: 0 });
  });
});

function botSet(seed: string): VersusMatchRecord {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
  return recordOf(match, seed, 'battle');
}
