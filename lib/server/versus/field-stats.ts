import 'server-only';
import type { VersusMode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { ratesOver, type FieldTotals, type Rates } from '@/lib/versus/stats';

/**
 * A seat's figures in one game of a stored match, read from its feature row (measured by the
 * verification pool from the verified replay, lib/server/integrity/features.ts). A guest's seat
 * has no row; a row measured before attack was kept has `attack` null.
 */
export type SeatGameStats = { gameIndex: number; seat: 0 | 1; pieces: number; ticks: number; attack: number | null; garbageCleared: number | null; sent: number | null };

/** Every measured seat-game of a match, in game then seat order. */
export async function getMatchFieldStats(options: { matchId: string }): Promise<SeatGameStats[]> {
  const db = await getDb();
  const rows = await db.gameFeatures.findMany({
    where: { matchId: options.matchId },
    orderBy: [{ gameIndex: 'asc' }, { seat: 'asc' }],
    select: { gameIndex: true, seat: true, pieces: true, ticks: true, attack: true, garbageCleared: true, sent: true },
  });
  return rows.flatMap((r) =>
    r.gameIndex === null || r.seat === null ? [] : [{ ...r, gameIndex: r.gameIndex, seat: r.seat === 0 ? (0 as const) : (1 as const) }],
  );
}

/** One match of a player's trend: its games' totals taken together. */
export type TrendPoint = Rates & { matchId: string; at: string; games: number };
export type StatsTrend = {
  /** The newest `limit` measured matches, oldest first. */
  points: TrendPoint[];
  /** Over the last 10 of them and over every measured game; null without one. */
  last10: Rates | null;
  allTime: Rates | null;
  /** Games in the mode stored before attack was kept: counted in neither. */
  unmeasured: number;
};

export const TREND_AVERAGE_OF = 10;
/** At most this many rows are read for a trend: a match has at most 2 × firstTo − 1 games. */
const MAX_TREND_ROWS = 600;

const totals = (rows: ReadonlyArray<{ attack: number | null; garbageCleared: number | null; pieces: number; ticks: number }>): FieldTotals[] =>
  rows.map((r) => ({ attack: r.attack ?? 0, garbageCleared: r.garbageCleared ?? 0, pieces: r.pieces, ticks: r.ticks }));

/**
 * A player's APM, PPS and VS per match in a versus mode (the newest `limit` matches), with the
 * averages over the last ten and over all time. Rates over several games are their totals
 * divided (ratesOver), so a short game weighs as little as it lasted.
 */
export async function getStatsTrend(options: { userId: string; mode: VersusMode; limit: number }): Promise<StatsTrend> {
  const db = await getDb();
  const measured = { userId: options.userId, mode: options.mode, matchId: { not: null }, attack: { not: null } };
  const [rows, sum, unmeasured] = await Promise.all([
    db.gameFeatures.findMany({
      where: measured,
      orderBy: [{ playedAt: 'desc' }, { matchId: 'desc' }],
      take: Math.min(MAX_TREND_ROWS, options.limit * 13),
      select: { matchId: true, playedAt: true, attack: true, garbageCleared: true, pieces: true, ticks: true },
    }),
    db.gameFeatures.aggregate({ where: measured, _sum: { attack: true, garbageCleared: true, pieces: true, ticks: true }, _count: true }),
    db.gameFeatures.count({ where: { userId: options.userId, mode: options.mode, matchId: { not: null }, attack: null } }),
  ]);
  const matches = new Map<string, typeof rows>();
  for (const r of rows) if (r.matchId) matches.set(r.matchId, [...(matches.get(r.matchId) ?? []), r]);
  const groups = [...matches.entries()];
  // The oldest match read may be cut short by the row cap: left out rather than shown in part.
  if (rows.length === Math.min(MAX_TREND_ROWS, options.limit * 13) && groups.length > 1) groups.pop();
  const points = groups.slice(0, options.limit).map(([matchId, games]): TrendPoint => ({
    matchId, at: games[0]!.playedAt.toISOString(), games: games.length, ...ratesOver(totals(games)),
  })).reverse();
  const recent = groups.slice(0, TREND_AVERAGE_OF).flatMap(([, games]) => games);
  return {
    points,
    last10: recent.length > 0 ? ratesOver(totals(recent)) : null,
    allTime: sum._count > 0 ? ratesOver(totals([{ attack: sum._sum.attack, garbageCleared: sum._sum.garbageCleared, pieces: sum._sum.pieces ?? 0, ticks: sum._sum.ticks ?? 0 }])) : null,
    unmeasured,
  };
}
