import 'server-only';
import { Glicko2 } from 'glicko2';
import { RATING_SETTINGS, type Rating } from '@/lib/server/versus/rating';

/**
 * Team ratings (ranked 2v2): each player keeps their own Glicko-2 rating, and a team match moves
 * it by the team's result, by the "composite opponent" update of Williams, "Abstracting Glicko-2
 * for Team Games" (University of Cincinnati, 2013): each player plays one game, in a rating
 * period of its own, against one imagined opponent whose rating and deviation are the other
 * team's averages. So a strong player carried by a weak partner gains little against a weak
 * team, a newcomer (wide deviation) moves fast, and a team's two players move apart as their own
 * deviations say. The maths of each game is the glicko2 package's, as for 1v1 (rating.ts).
 */

/** The imagined opponent a team is to the other: its players' mean rating and mean deviation. */
export function compositeOf(team: readonly Rating[]): Pick<Rating, 'rating' | 'rd'> {
  if (team.length === 0) throw new RangeError('a team has at least one player');
  const mean = (f: (r: Rating) => number) => team.reduce((s, r) => s + f(r), 0) / team.length;
  return { rating: mean((r) => r.rating), rd: mean((r) => r.rd) };
}

/** The result of a team match: team 0 won, team 1 won, or a draw. */
export type TeamResult = 0 | 1 | 'draw';

/** Every player's rating after one team match, in the order given: `[team0, team1]`. */
export function rateTeams(teams: readonly [readonly Rating[], readonly Rating[]], result: TeamResult): [Rating[], Rating[]] {
  const composites = [compositeOf(teams[0]), compositeOf(teams[1])] as const;
  const rate = (side: 0 | 1) => {
    const opponent = composites[side === 0 ? 1 : 0];
    const score = result === 'draw' ? 0.5 : result === side ? 1 : 0;
    return teams[side].map((me) => {
      // A fresh system per player: each is their own rating period, and the opponent's update is discarded.
      const system = new Glicko2(RATING_SETTINGS);
      const p = system.makePlayer(me.rating, me.rd, me.vol);
      const o = system.makePlayer(opponent.rating, opponent.rd, RATING_SETTINGS.vol);
      system.updateRatings([[p, o, score]]);
      return { rating: p.getRating(), rd: p.getRd(), vol: p.getVol() };
    });
  };
  return [rate(0), rate(1)];
}
