import { beforeEach, describe, expect, it } from 'vitest';
import { VersusMatch } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { integritySettled, judgePlayer, recordIntegrity, type StoredGame } from '@/lib/server/integrity/record';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf } from '@/lib/server/versus/verify';
import type { Owner } from '@/lib/server/games/owner';
import { resetDb } from '@/tests/data/db';
import { minutes, player } from '@/tests/data/play';
import { HANDLING } from '@/tests/engine/helpers';
import { FAST_HUMAN } from '@/tests/support/human';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

// The integrity rows and the judge's reads go straight to the driver (decision 0033): these are the
// cases where hand-written SQL could differ from what Prisma's createMany/findMany/groupBy did.

function botVersusHuman(seed: string) {
  const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/bot`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/human`, mistakes: 0.2, human: FAST_HUMAN })]);
  return recordOf(match, seed, 'battle');
}
const records = ['isql-1', 'isql-2', 'isql-3'].map(botVersusHuman);
const guest = (n: number): Owner => ({ userId: null, guestId: `guest-${n}` });

async function store(i: number, seats: [Owner, Owner], now = minutes(i)) {
  expect(await storeMatch({ matchId: `m${i}`, record: records[i % records.length]!, seats, ranked: false, now })).toMatchObject({ ok: true });
  await integritySettled();
}

/** The stored match as its store hands it to the integrity queue, with the seats' accounts given here. */
async function storedGame(matchId: string, users: [string | null, string | null], playedAt: Date): Promise<StoredGame> {
  const games = await (await getDb()).versusGame.findMany({ where: { matchId }, orderBy: { index: 'asc' } });
  return { kind: 'versus', matchId, mode: 'battle', playedAt, users, games: games.map((g) => ({ index: g.index, endTick: g.endTick, replays: [g.replay0, g.replay1] as const })) };
}

beforeEach(resetDb);

describe('integrity rows written with the driver', () => {
  it('an account deleted between the store and the rows costs only its own seat; the time stays UTC to the millisecond', async () => {
    const alice = await player('alice');
    await store(0, [guest(1), guest(2)]);
    const playedAt = new Date('2026-11-18T23:59:59.123Z');
    await recordIntegrity(await storedGame('m0', [alice.userId, 'deleted-account'], playedAt));
    const rows = await (await getDb()).gameFeatures.findMany({ orderBy: { gameIndex: 'asc' } });
    expect(rows.map((r) => [r.userId, r.seat, r.gameIndex, r.playedAt.toISOString()])).toEqual(
      records[0]!.games.map((_, i) => [alice.userId, 0, i, playedAt.toISOString()]),
    );
    expect(rows[0]!.pieces).toBeGreaterThan(0);
  });

  it('rows written twice are kept once, the first ones untouched', async () => {
    const [alice, bob] = [await player('alice'), await player('bob')];
    await store(0, [alice, bob]);
    const db = await getDb();
    const first = await db.gameFeatures.findMany({ orderBy: { id: 'asc' } });
    expect(first.length).toBe(records[0]!.games.length * 2);
    await recordIntegrity(await storedGame('m0', [alice.userId, bob.userId], minutes(9)));
    expect(await db.gameFeatures.findMany({ orderBy: { id: 'asc' } })).toEqual(first);
  });

  it("a decision counts from its latest time: games up to it raise nothing again, each reason on its own cutoff", async () => {
    const [bot, human] = [await player('botty'), await player('humane')];
    for (let i = 0; i < 3; i++) await store(i, [bot, human]);
    const db = await getDb();
    const open = await db.integrityFlag.findMany({ where: { userId: bot.userId! } });
    expect(open.length).toBeGreaterThan(0);
    // Decided twice over: an older decision, then one at the last game's time (not after it).
    await db.integrityFlag.updateMany({ where: { userId: bot.userId! }, data: { status: 'dismissed', openKey: null, decidedAt: minutes(2) } });
    await db.integrityFlag.create({ data: { ...open[0]!, id: 'older', evidence: {}, status: 'dismissed', openKey: null, decidedAt: minutes(-5) } });
    expect(await judgePlayer({ userId: bot.userId!, mode: 'battle' })).toBe(0);
    // A decision in another mode, or still open, is no cutoff here: the window is judged whole.
    await db.integrityFlag.updateMany({ where: { userId: bot.userId!, id: { not: 'older' } }, data: { decidedAt: null } });
    await db.integrityFlag.updateMany({ where: { id: 'older' }, data: { mode: 'sprint' } });
    expect(await judgePlayer({ userId: bot.userId!, mode: 'battle' })).toBe(open.length);
  });
});
