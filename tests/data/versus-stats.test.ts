import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { MatchStats } from '@/components/versus/MatchStats';
import { getDb } from '@/lib/server/db';
import { backfillAttack } from '@/lib/server/integrity/backfill';
import { integritySettled } from '@/lib/server/integrity/record';
import { replayFeatures } from '@/lib/server/integrity/features';
import { getMatchFieldStats, getStatsTrend } from '@/lib/server/versus/field-stats';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf } from '@/lib/server/versus/verify';
import type { Owner } from '@/lib/server/games/owner';
import { ratesOver } from '@/lib/versus/stats';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

function played(seed: string) {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2 })]);
  return recordOf(match, seed, 'battle');
}
const records = [played('stats-0'), played('stats-5')];
/** The games as the match page has them. */
const gamesOf = (i: number) => records[i]!.games.map((_, index) => ({ index }));

/** What each game of a record measures for a seat, straight from its replays (no database). */
const expected = (i: number, seat: 0 | 1) =>
  records[i]!.games.map((g, gameIndex) => {
    const row = replayFeatures(g.replays[seat], g.endTick)!;
    return { gameIndex, seat, pieces: row.pieces, ticks: row.ticks, attack: row.attack, garbageCleared: row.garbageCleared, sent: row.sent };
  });

async function store(i: number, seats: [Owner, Owner], at: Date) {
  expect(await storeMatch({ matchId: `m${i}`, record: records[i]!, seats, ranked: false, now: at })).toMatchObject({ ok: true });
  await integritySettled();
}

beforeEach(resetDb);

describe('versus stats read back from stored matches', () => {
  it('a match’s seat-games carry the attack, garbage cleared and lines sent of their verified replays', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    await store(0, [ann, ben], minutes(1));
    const stats = await getMatchFieldStats({ matchId: 'm0' });
    const want = records[0]!.games.flatMap((_, g) => [expected(0, 0)[g]!, expected(0, 1)[g]!]);
    expect(stats).toEqual(want);
    expect(stats.some((s) => (s.attack ?? 0) > 0) && stats.some((s) => (s.garbageCleared ?? 0) > 0)).toBe(true);
    // The page's table shows them: a row per game and seat, and the set's.
    const html = renderToStaticMarkup(createElement(MatchStats, { games: gamesOf(0), names: ['ann', 'ben'], stats }));
    expect(html.match(/data-testid="match-stats-row"/g)).toHaveLength(records[0]!.games.length * 2 + 2);
    expect(html).not.toContain('match-stats-missing');
  });

  it('a guest seat has no figures, and the table says why', async () => {
    const ann = await player('ann');
    await store(0, [ann, { userId: null, guestId: 'guest-1' }], minutes(1));
    const stats = await getMatchFieldStats({ matchId: 'm0' });
    expect(stats.map((s) => s.seat)).toEqual(records[0]!.games.map(() => 0));
    const html = renderToStaticMarkup(createElement(MatchStats, { games: gamesOf(0), names: ['ann', 'Guest 1'], stats }));
    expect(html).toContain('match-stats-missing');
  });

  it('a player’s trend: a point per match oldest first, the rates of its games’ totals, and the averages', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    await store(1, [ben, ann], minutes(9)); // stored first but played later: order is by time played
    await store(0, [ann, ben], minutes(1));
    const trend = await getStatsTrend({ userId: ann.userId!, mode: 'battle', limit: 50 });
    const first = ratesOver(expected(0, 0).map((r) => ({ ...r, attack: r.attack!, garbageCleared: r.garbageCleared! })));
    const second = ratesOver(expected(1, 1).map((r) => ({ ...r, attack: r.attack!, garbageCleared: r.garbageCleared! })));
    expect(trend.points.map((p) => p.matchId)).toEqual(['m0', 'm1']);
    expect(trend.points[0]).toMatchObject({ ...first, games: records[0]!.games.length, at: minutes(1).toISOString() });
    expect(trend.points[1]).toMatchObject(second);
    const all = ratesOver([...expected(0, 0), ...expected(1, 1)].map((r) => ({ ...r, attack: r.attack!, garbageCleared: r.garbageCleared! })));
    for (const k of ['apm', 'pps', 'vs'] as const) {
      expect(trend.allTime![k]).toBeCloseTo(all[k], 9);
      expect(trend.last10![k]).toBeCloseTo(all[k], 9);
    }
    expect(trend.unmeasured).toBe(0);
    // Only the newest: the limit keeps the latest matches.
    expect((await getStatsTrend({ userId: ann.userId!, mode: 'battle', limit: 1 })).points.map((p) => p.matchId)).toEqual(['m1']);
    // Another mode, or a player without matches: nothing.
    expect(await getStatsTrend({ userId: ann.userId!, mode: 'race30', limit: 50 })).toEqual({ points: [], last10: null, allTime: null, unmeasured: 0 });
  });

  it('rows measured before attack was kept count as unmeasured, in neither the trend nor the averages', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    await store(0, [ann, ben], minutes(1));
    await store(1, [ann, ben], minutes(9));
    const db = await getDb();
    const { count } = await db.gameFeatures.updateMany({ where: { matchId: 'm0' }, data: { attack: null, garbageCleared: null, sent: null } });
    const trend = await getStatsTrend({ userId: ann.userId!, mode: 'battle', limit: 50 });
    expect(trend.points.map((p) => p.matchId)).toEqual(['m1']);
    expect(trend.unmeasured).toBe(count / 2);
    expect(trend.allTime).toEqual(ratesOver(expected(1, 0).map((r) => ({ ...r, attack: r.attack!, garbageCleared: r.garbageCleared! }))));
    const html = renderToStaticMarkup(createElement(MatchStats, { games: gamesOf(0), names: ['ann', 'ben'], stats: await getMatchFieldStats({ matchId: 'm0' }) }));
    expect(html).toContain('match-stats-missing');
  });
});

describe('the backfill of rows measured before attack was kept', () => {
  it('re-measures them from their stored replays, solo and versus, and leaves every other row and column as it was', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    await store(0, [ann, ben], minutes(1));
    await store(1, [ann, ben], minutes(9));
    await playAndSubmit({ owner: ann });
    await integritySettled();
    const db = await getDb();
    const before = await db.gameFeatures.findMany({ orderBy: { id: 'asc' } });
    // The solo game's seed is the ticket's, random: about 1 bot sprint in 100 clears only singles and
    // sends nothing, so its row is only required to be measured; m0's fixed seeds send attack.
    expect(before.find((r) => r.gameId)?.attack).toEqual(expect.any(Number));
    expect(before.filter((r) => r.matchId === 'm0').some((r) => r.attack! > 0)).toBe(true);
    const old = await db.gameFeatures.updateMany({ where: { OR: [{ matchId: 'm0' }, { gameId: { not: null } }] }, data: { attack: null, garbageCleared: null, sent: null } });
    expect(await backfillAttack({ batch: 3 })).toEqual({ updated: old.count, unreadable: 0 });
    expect(await db.gameFeatures.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
    expect(await backfillAttack()).toEqual({ updated: 0, unreadable: 0 });
  });

  it('passes over a replay it cannot read, leaving it unmeasured', async () => {
    const [ann, ben] = [await player('ann'), await player('ben')];
    await store(0, [ann, ben], minutes(1));
    const db = await getDb();
    await db.gameFeatures.updateMany({ where: { matchId: 'm0' }, data: { attack: null, garbageCleared: null, sent: null } });
    await db.versusGame.update({ where: { matchId_index: { matchId: 'm0', index: 0 } }, data: { replay0: 'not a replay' } });
    const rows = await db.gameFeatures.count({ where: { matchId: 'm0' } });
    expect(await backfillAttack({ batch: 1 })).toEqual({ updated: rows - 1, unreadable: 1 });
    expect(await db.gameFeatures.count({ where: { attack: null } })).toBe(1);
  });
});
