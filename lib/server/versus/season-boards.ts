import 'server-only';
import type { VersusMode } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { BAND_IDS, type BandId } from '@/lib/versus/bands';

/** A closed season's row: the rating and band at its end, the best band reached, the season's counts. */
export type SeasonRow = { rank: number; player: { id: string; username: string }; rating: number; band: BandId; peakBand: BandId | null; matches: number; wins: number };
/** A badge on the profile: "S1 · Platinum (peak Diamond)". */
export type SeasonBadge = { season: number; mode: VersusMode; band: BandId; peakBand: BandId | null };

const asBand = (v: string | null): BandId | null => BAND_IDS.find((b) => b === v) ?? null;

/**
 * A closed season's rating board, read from the standings the rollover closed: players who were
 * established at the season's end (they have a final band) and are not banned, best final rating
 * first, ties by player id. The top `limit` only: a past season does not move, so no cursor yet.
 */
export async function getSeasonBoard(options: { mode: VersusMode; season: number; limit: number }): Promise<SeasonRow[]> {
  const rows = await (await getDb()).versusSeasonStanding.findMany({
    where: { mode: options.mode, season: options.season, closedAt: { not: null }, finalBand: { not: null }, user: { bannedAt: null } },
    orderBy: [{ finalRating: 'desc' }, { userId: 'asc' }],
    take: options.limit,
    select: { finalRating: true, finalBand: true, peakBand: true, matches: true, wins: true, user: { select: { id: true, username: true } } },
  });
  return rows.flatMap((r, i) => {
    const band = asBand(r.finalBand);
    return band ? [{ rank: i + 1, player: r.user, rating: r.finalRating, band, peakBand: asBand(r.peakBand), matches: r.matches, wins: r.wins }] : [];
  });
}

/** A player's badges: each closed season of each mode that they ended with a band, newest first. */
export async function getSeasonBadges(options: { userId: string; modes: readonly VersusMode[] }): Promise<SeasonBadge[]> {
  const rows = await (await getDb()).versusSeasonStanding.findMany({
    where: { userId: options.userId, closedAt: { not: null }, finalBand: { not: null }, mode: { in: [...options.modes] } },
    orderBy: [{ season: 'desc' }, { mode: 'asc' }],
    select: { season: true, mode: true, finalBand: true, peakBand: true },
  });
  return rows.flatMap((r) => {
    const band = asBand(r.finalBand);
    const mode = options.modes.find((m) => m === r.mode);
    return band && mode ? [{ season: r.season, mode, band, peakBand: asBand(r.peakBand) }] : [];
  });
}
