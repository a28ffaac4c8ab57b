import 'server-only';
import type { FeatureRow } from '@/lib/server/integrity/features';
import { HUMAN_RANGE, JUMP, PROFILE, RANGE_REASONS, type IntegrityReason, type ModeKind, type RangeReason } from '@/lib/server/integrity/rules';

/** Where a profile's game can be watched: a solo replay, or one seat of one game of a match. */
export type GameRef = { kind: 'solo'; gameId: string } | { kind: 'versus'; matchId: string; game: number; seat: number };
export type ProfileGame = { ref: GameRef; row: FeatureRow };

/** Medians of a run of games, as the moderator compares them. */
export type Medians = { games: number; pps: number; pressesPerSecond: number; reactionTicks: number | null; tapShare: number; reactionShare: number };
export type Evidence = { games: number; out: GameRef[]; earlier: Medians | null; recent: Medians };
export type ProfileFlag = { reason: IntegrityReason; message: string; evidence: Evidence };

/** The reasons one game's features leave the human range, each judged only on a large enough sample. */
export function outOfRange(row: FeatureRow, kind: ModeKind): RangeReason[] {
  const out: RangeReason[] = [];
  if (row.taps >= HUMAN_RANGE.minTaps && row.tapShare >= HUMAN_RANGE.steadyTapShare) out.push('steady_taps');
  // reactionShare is over the pieces that had a next press: about one fewer than the pieces.
  if (row.pieces > HUMAN_RANGE.minReactions && row.reactionShare >= HUMAN_RANGE.steadyReactionShare) out.push('steady_reaction');
  if (row.ticks >= HUMAN_RANGE.minTicks && row.pressesPerSecond > HUMAN_RANGE.maxPressesPerSecond) out.push('sustained_presses');
  if (row.pieces >= HUMAN_RANGE.minPieces && row.pps > HUMAN_RANGE.maxPps[kind]) out.push('sustained_pps');
  return out;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export function mediansOf(rows: readonly FeatureRow[]): Medians {
  const reactions = rows.flatMap((r) => (r.reactionTicks === null ? [] : [r.reactionTicks]));
  return {
    games: rows.length,
    pps: median(rows.map((r) => r.pps)),
    pressesPerSecond: median(rows.map((r) => r.pressesPerSecond)),
    reactionTicks: reactions.length === 0 ? null : median(reactions),
    tapShare: median(rows.map((r) => r.tapShare)),
    reactionShare: median(rows.map((r) => r.reactionShare)),
  };
}

const WHY: Record<RangeReason, string> = {
  steady_taps: `taps held the same number of ticks (${HUMAN_RANGE.steadyTapShare * 100}% or more of them)`,
  steady_reaction: `the same reaction to every new piece, to the tick (${HUMAN_RANGE.steadyReactionShare * 100}% or more of pieces)`,
  sustained_presses: `more than ${HUMAN_RANGE.maxPressesPerSecond} key presses a second over the whole game`,
  sustained_pps: 'more pieces a second over the whole game than the best players sustain',
};

/**
 * What a player's recent games in one mode say (newest first; only the newest PROFILE.window are
 * read): a flag for each reason found in at least PROFILE.minGamesOut games, and a jump when the
 * newest PROFILE.recent games are far faster than the ones before them. Pure.
 */
export function judgeProfile(newestFirst: readonly ProfileGame[], kind: ModeKind): ProfileFlag[] {
  const games = newestFirst.slice(0, PROFILE.window);
  if (games.length === 0) return [];
  const recentGames = games.slice(0, PROFILE.recent);
  const earlierGames = games.slice(PROFILE.recent);
  const recent = mediansOf(recentGames.map((g) => g.row));
  const earlier = earlierGames.length >= PROFILE.minEarlier ? mediansOf(earlierGames.map((g) => g.row)) : null;
  const flags: ProfileFlag[] = [];
  const byReason = new Map<RangeReason, GameRef[]>();
  for (const g of games) for (const reason of outOfRange(g.row, kind)) byReason.set(reason, [...(byReason.get(reason) ?? []), g.ref]);
  for (const reason of RANGE_REASONS) {
    const refs = byReason.get(reason) ?? [];
    if (refs.length < PROFILE.minGamesOut) continue;
    flags.push({
      reason,
      message: `${refs.length} of the last ${games.length} games showed ${WHY[reason]}.`,
      evidence: { games: games.length, out: refs.slice(0, 10), earlier, recent },
    });
  }
  if (earlier && recentGames.length >= PROFILE.recent && recent.pps >= earlier.pps * JUMP.ppsRatio && recent.pps - earlier.pps >= JUMP.minPpsGain) {
    flags.push({
      reason: 'pps_jump',
      message: `Median ${recent.pps.toFixed(2)} pieces a second over the last ${recentGames.length} games, against ${earlier.pps.toFixed(2)} over the ${earlierGames.length} before them.`,
      evidence: { games: games.length, out: recentGames.map((g) => g.ref), earlier, recent },
    });
  }
  return flags;
}
