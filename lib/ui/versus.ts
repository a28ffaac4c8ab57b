// How versus numbers read on every page (boards, profile, match viewer): no React, no server code.

/** A rating as players read it: whole points, with "?" while it is provisional. */
export function formatRating(rating: number, provisional = false): string {
  return `${Math.round(rating)}${provisional ? '?' : ''}`;
}

/** How far a player is into their placement matches (the count is the server's rule): "placement 3/10". */
export function formatPlacement(p: { played: number; of: number }): string {
  return `placement ${p.played}/${p.of}`;
}

/** A rating change: "+12", "−8" (a real minus sign), "±0". */
export function formatRatingChange(before: number, after: number): string {
  const d = Math.round(after) - Math.round(before);
  return d > 0 ? `+${d}` : d < 0 ? `−${-d}` : '±0';
}

/** A set score from one side: "2–1". */
export function formatSetScore(score: readonly [number, number]): string {
  return `${score[0]}–${score[1]}`;
}

/** Why a game of a set ended, as the viewer's game selector says it. */
export const GAME_END_TEXT: Readonly<Record<string, string>> = { topOut: 'topped out', goal: 'reached the goal', forfeit: 'forfeit' };
