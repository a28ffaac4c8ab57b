import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { readBandEdges } from '@/lib/server/versus/bands';
import { getRatingBoard } from '@/lib/server/versus/boards';
import { RATING_TIME, storedRating } from '@/lib/server/versus/rating';
import { getSeasonBadges, getSeasonBoard } from '@/lib/server/versus/season-boards';
import { rollOverSeasons, SEASON_RESET } from '@/lib/server/versus/seasons';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf } from '@/lib/server/versus/verify';
import type { Owner } from '@/lib/server/games/owner';
import { bandIndex, bandOf, type BandId } from '@/lib/versus/bands';
import { seasonByNumber } from '@/lib/versus/seasons';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const match = new VersusMatch({ mode: 'battle', seed: 'season-1', handling: [HANDLING, HANDLING] });
playMatch(match, [new VersusBot({ seed: 'season-1/a', mistakes: 0.1 }), new VersusBot({ seed: 'season-1/b', mistakes: 0.2, pace: 4 })]);
const rec = recordOf(match, 'season-1', 'battle');

const S1 = seasonByNumber(1);
/** The fake clock: the season's last days, so everyone is still active when it ends. */
const late = (minutes: number) => new Date(S1.end.getTime() - 3 * RATING_TIME.dayMs + minutes * 60_000);
const afterEnd = (minutes: number) => new Date(S1.end.getTime() + minutes * 60_000);

/** 40 established, active players spread 1200–1980 (not playing: they set the bands' edges). */
async function population(): Promise<void> {
  const db = await getDb();
  const ids = Array.from({ length: 40 }, (_, i) => `p${i}`);
  await db.user.createMany({ data: ids.map((id) => ({ id, username: id, usernameKey: id })) });
  await db.versusRating.createMany({
    data: ids.map((userId, i) => ({ userId, mode: 'battle', rating: 1200 + 20 * i, rd: 60, vol: 0.06, matches: 30, wins: 10, updatedAt: late(0), ratedAt: late(0), season: 1 })),
  });
}

/** A placed player at a rating, in season 1. */
async function placed(name: string, rating: number): Promise<Owner> {
  const owner = await player(name);
  await (await getDb()).versusRating.create({
    data: { userId: owner.userId!, mode: 'battle', rating, rd: 90, vol: 0.06, matches: 30, wins: 15, updatedAt: late(0), ratedAt: late(0), season: 1 },
  });
  return owner;
}

const rowOf = async (o: Owner) => (await getDb()).versusRating.findUniqueOrThrow({ where: { userId_mode: { userId: o.userId!, mode: 'battle' } } });
const resetOf = (r: { rating: number; rd: number; vol: number }) =>
  storedRating({ rating: SEASON_RESET.mean + (r.rating - SEASON_RESET.mean) * SEASON_RESET.keep, rd: Math.max(r.rd, SEASON_RESET.minRd), vol: r.vol });
const higher = (a: BandId | null, b: BandId | null) => (a === null ? b : b === null || bandIndex(a) >= bandIndex(b) ? a : b);

beforeEach(resetDb);

describe('a season’s life on a fake clock', () => {
  /** Alice climbs with three wins over Bob, then falls with six losses; the peak and band each saw after a match. */
  async function playSeason(alice: Owner, bob: Owner) {
    const peaks: Record<'alice' | 'bob', BandId | null> = { alice: null, bob: null };
    const winsFor = (w: Owner, l: Owner): [Owner, Owner] => (rec.winnerSeat === 0 ? [w, l] : [l, w]);
    const results = ['alice', 'alice', 'alice', 'bob', 'bob', 'bob', 'bob', 'bob', 'bob'] as const;
    for (const [i, winner] of results.entries()) {
      const seats = winner === 'alice' ? winsFor(alice, bob) : winsFor(bob, alice);
      const out = await storeMatch({ matchId: `s1-${i}`, record: rec, seats, ranked: true, now: late(i) });
      if (!out.ok || !out.ratings) throw new Error('not stored');
      const aliceSeat = seats[0] === alice ? 0 : 1;
      peaks.alice = higher(peaks.alice, out.ratings[aliceSeat].bands?.after ?? null);
      peaks.bob = higher(peaks.bob, out.ratings[1 - aliceSeat]!.bands?.after ?? null);
    }
    return peaks;
  }

  it('closes season 1 once: soft reset, final and peak bands kept, the season-1 board stays, season 2 starts empty', async () => {
    await population();
    const [alice, bob] = [await placed('alice', 1850), await placed('bob', 1850)];
    const peaks = await playSeason(alice, bob);
    const before = { alice: await rowOf(alice), bob: await rowOf(bob) };
    // What the end should read, worked out apart from the rollover's SQL: the bands at the end's edges.
    const edges = await readBandEdges({ mode: 'battle', now: S1.end });
    const finalBand = { alice: bandOf(before.alice.rating, edges), bob: bandOf(before.bob.rating, edges) };
    // The set-up is worth something only if Alice's peak is above where she ended.
    expect(bandIndex(peaks.alice!)).toBeGreaterThan(bandIndex(finalBand.alice));

    expect(await rollOverSeasons({ now: late(60) })).toEqual([]);
    expect(await rollOverSeasons({ now: afterEnd(1) })).toEqual([1]);
    expect(await rollOverSeasons({ now: afterEnd(2) })).toEqual([]);

    for (const who of ['alice', 'bob'] as const) {
      const row = await rowOf(who === 'alice' ? alice : bob);
      expect({ rating: row.rating, rd: row.rd, vol: row.vol }).toEqual(resetOf(before[who]));
      // All-time counts stay: placement is not played again.
      expect(row).toMatchObject({ season: 2, matches: before[who].matches, wins: before[who].wins });
    }
    // Every rating row of the season was reset, played or not, exactly once.
    const p39 = await (await getDb()).versusRating.findUniqueOrThrow({ where: { userId_mode: { userId: 'p39', mode: 'battle' } } });
    expect(p39).toMatchObject({ season: 2, rating: 1500 + (1980 - 1500) / 2, rd: SEASON_RESET.minRd });

    const board1 = await getSeasonBoard({ mode: 'battle', season: 1, limit: 10 });
    const expected = [
      { who: 'alice', row: before.alice },
      { who: 'bob', row: before.bob },
    ].toSorted((a, b) => b.row.rating - a.row.rating);
    expect(board1).toEqual(
      expected.map(({ who, row }, i) => ({
        rank: i + 1, player: { id: row.userId, username: who }, rating: row.rating, band: finalBand[who as 'alice' | 'bob'],
        peakBand: peaks[who as 'alice' | 'bob'], matches: 9, wins: who === 'alice' ? 3 : 6,
      })),
    );
    // Season 2: everyone's deviation is back above the line, so its board fills as people play.
    expect((await getRatingBoard({ mode: 'battle', limit: 10, now: afterEnd(5) })).rows).toEqual([]);
    expect(await getSeasonBoard({ mode: 'battle', season: 2, limit: 10 })).toEqual([]);

    expect(await getSeasonBadges({ userId: alice.userId!, modes: ['battle'] })).toEqual([{ season: 1, mode: 'battle', band: finalBand.alice, peakBand: peaks.alice }]);
  });

  it('the first rated match after the end closes the season before rating anyone, and counts to the new one', async () => {
    await population();
    const [alice, bob] = [await placed('alice', 1850), await placed('bob', 1850)];
    await playSeason(alice, bob);
    const before = await rowOf(alice);
    const seats: [Owner, Owner] = [alice, bob];
    const out = await storeMatch({ matchId: 's2-0', record: rec, seats, ranked: true, now: afterEnd(1) });
    if (!out.ok || !out.ratings) throw new Error('not stored');
    expect(out.ratings[0].before.rating).toBe(resetOf(before).rating);
    // The cleanup's run after it finds the season closed.
    expect(await rollOverSeasons({ now: afterEnd(2) })).toEqual([]);
    const standings = await (await getDb()).versusSeasonStanding.findMany({ where: { userId: alice.userId! }, orderBy: { season: 'asc' } });
    expect(standings.map((s) => ({ season: s.season, matches: s.matches, closed: s.closedAt !== null }))).toEqual([
      { season: 1, matches: 9, closed: true },
      { season: 2, matches: 1, closed: false },
    ]);
    expect(standings[0]!.finalRating).toBe(before.rating);
    // A running season is no badge yet.
    expect((await getSeasonBadges({ userId: alice.userId!, modes: ['battle'] })).map((b) => b.season)).toEqual([1]);
  });

  it('two rollovers at once close the season once', async () => {
    await population();
    const before = await (await getDb()).versusRating.findUniqueOrThrow({ where: { userId_mode: { userId: 'p10', mode: 'battle' } } });
    const runs = await Promise.all([rollOverSeasons({ now: afterEnd(1) }), rollOverSeasons({ now: afterEnd(1) })]);
    expect(runs.flat()).toEqual([1]);
    const after = await (await getDb()).versusRating.findUniqueOrThrow({ where: { userId_mode: { userId: 'p10', mode: 'battle' } } });
    expect(after.rating).toBe(resetOf(before).rating);
  });
});
