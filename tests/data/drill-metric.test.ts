import { beforeEach, describe, expect, it } from 'vitest';
import { Prisma } from '@/lib/generated/prisma/client';
import { isRankable, metricOf, MODE_NAMES, type Mode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { METRIC_SQL, RANKABLE_SQL } from '@/lib/server/games/metric';
import { getBestProgression } from '@/lib/server/games/progression';
import { getBoard } from '@/lib/server/games/boards';
import { hardDropGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player } from '@/tests/data/play';

beforeEach(resetDb);

type Row = { mode: Mode; score: number; ticks: number; clears: number; finished: boolean };

/** Stores a game row as it is (no replay behind it): what the ranking queries read. */
async function store(userId: string, row: Row, at: Date): Promise<string> {
  const db = await getDb();
  const ticket = await db.gameTicket.create({ data: { mode: row.mode, seed: 's', rulesVersion: 5, userId, expiresAt: at, usedAt: at }, select: { id: true } });
  await db.game.create({
    data: {
      id: ticket.id, ticketId: ticket.id, userId, mode: row.mode, score: row.score, lines: 0, level: 1, ticks: row.ticks, pieces: 1, keys: 1, pps: 0, kpp: 0,
      finished: row.finished, toppedOut: !row.finished, clears: row.clears, replay: 'x', replayDigest: ticket.id, finalHash: '0', rulesVersion: 5, week: '2026-W48', createdAt: at,
    },
  });
  return ticket.id;
}

describe('the board metric in SQL and in TypeScript', () => {
  it('agree for every mode, Perfect Clears packing clears and ticks included', async () => {
    const ann = await player('ann');
    const rows: Row[] = [];
    for (const mode of MODE_NAMES)
      for (const [score, ticks, clears, finished] of [[0, 0, 0, false], [12_345, 3000, 4, true], [99, 216_000, 8191, false], [1, 300_000, 2, true], [5, 10, 50_000, false]] as const)
        rows.push({ mode, score, ticks, clears, finished });
    for (const [i, row] of rows.entries()) await store(ann.userId!, row, minutes(i));
    const db = await getDb();
    const got = await db.$queryRaw<Array<{ mode: Mode; score: number; ticks: number; clears: number; finished: boolean; metric: number; rankable: boolean }>>(Prisma.sql`
      SELECT g."mode", g."score", g."ticks", g."clears", g."finished", ${METRIC_SQL} AS "metric", ${RANKABLE_SQL} AS "rankable"
      FROM "Game" g ORDER BY g."createdAt"`);
    expect(got).toHaveLength(rows.length);
    for (const g of got) {
      expect(Number(g.metric), `${g.mode} ${g.clears}/${g.ticks}`).toBe(metricOf(g.mode, g) + 0); // -0 is 0 in SQL
      expect(g.rankable, g.mode).toBe(isRankable(g.mode, g));
      // Fits the 32-bit PersonalBest column, whatever the count.
      expect(Math.abs(Number(g.metric))).toBeLessThan(2 ** 31);
    }
  });

  it('charts a Perfect Clears best by clears first, then by fewer ticks', async () => {
    const ann = await player('ann');
    const games: Array<[number, number]> = [[1, 900], [1, 1200], [1, 800], [2, 5000], [0, 100], [2, 4000]];
    const ids: string[] = [];
    for (const [i, [clears, ticks]] of games.entries()) ids.push(await store(ann.userId!, { mode: 'pc', score: 0, ticks, clears, finished: false }, minutes(i)));
    const { pc } = await getBestProgression({ userId: ann.userId! });
    expect(pc.map((p) => [p.clears, p.ticks])).toEqual([[1, 900], [1, 800], [2, 5000], [2, 4000]]);
    expect(pc.map((p) => p.gameId)).toEqual([ids[0], ids[2], ids[3], ids[5]]);
  });
});

describe('drill modes played live', () => {
  it('verify through the live host: Perfect Clears ranks whatever ended it, 20 TSD only when finished', async () => {
    const ann = await player('ann');
    const pc = await playAndSubmit({ owner: ann, mode: 'pc', play: hardDropGame });
    expect(pc.outcome.ok, JSON.stringify(pc.outcome)).toBe(true);
    expect(pc.played.result).toMatchObject({ reason: 'tooHigh', clears: 0 });
    const board = await getBoard({ mode: 'pc', period: 'all', limit: 10 });
    expect(board.metric).toBe('clears');
    expect(board.rows).toEqual([expect.objectContaining({ gameId: pc.ticket.gameId, clears: 0, ticks: pc.played.result.ticks })]);

    const tsd = await playAndSubmit({ owner: ann, mode: 'tsd20', play: hardDropGame, issuedAt: minutes(10) });
    expect(tsd.outcome.ok, JSON.stringify(tsd.outcome)).toBe(true);
    expect(tsd.played.result.finished).toBe(false);
    expect((await getBoard({ mode: 'tsd20', period: 'all', limit: 10 })).rows).toEqual([]);
    const db = await getDb();
    expect(await db.game.findUnique({ where: { id: tsd.ticket.gameId }, select: { clears: true, finished: true } })).toEqual({ clears: 0, finished: false });
  });
});
