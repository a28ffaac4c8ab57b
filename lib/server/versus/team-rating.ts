import 'server-only';
import { Glicko2 } from 'glicko2';
import { RATING_SETTINGS, type Rating } from '@/lib/server/versus/rating';
import { teamRating } from '@/lib/server/versus/team-matchmaking';

/**
 * Team ratings (ranked 2v2): each player keeps their own Glicko-2 rating, and a team match moves
 * it by the team's result, after Williams, "Abstracting Glicko-2 for Team Games" (University of
 * Cincinnati, 2013): each player plays one game, in a rating period of its own, as their team
 * against the other team. A team's strength is the one matching uses (team-matchmaking.ts
 * teamRating: a weaker player counted no lower than TEAM_GAP below the stronger), so a set's
 * expected result is the one the queue matched on: a 2200 with a 1000 partner is rated as the
 * 2100 team it meets, and its opponents lose to it what they would to any 2100 team. Each player
 * moves by what that game does to a player of their team's strength with their own deviation and
 * volatility (a newcomer moves fast, a settled player slowly), the change added to their own
 * rating; so a carried partner gains and loses as the team does. The maths of each game is the
 * glicko2 package's, as for 1v1 (rating.ts).
 */

/** A team as one side of a game: its strength (teamRating) and its players' mean deviation. */
export function compositeOf(team: readonly Rating[]): Pick<Rating, 'rating' | 'rd'> {
  if (team.length === 0) throw new RangeError('a team has at least one player');
  return { rating: teamRating(team.map((r) => r.rating)), rd: team.reduce((s, r) => s + r.rd, 0) / team.length };
}

/** The result of a team match: team 0 won, team 1 won, or a draw. */
export type TeamResult = 0 | 1 | 'draw';

/** Every player's rating after one team match, in the order given: `[team0, team1]`. */
export function rateTeams(teams: readonly [readonly Rating[], readonly Rating[]], result: TeamResult): [Rating[], Rating[]] {
  const composites = [compositeOf(teams[0]), compositeOf(teams[1])] as const;
  const rate = (side: 0 | 1) => {
    const own = composites[side].rating;
    const opponent = composites[side === 0 ? 1 : 0];
    const score = result === 'draw' ? 0.5 : result === side ? 1 : 0;
    return teams[side].map((me) => {
      // A fresh system per player: each is their own rating period, and the opponent's update is discarded.
      const system = new Glicko2(RATING_SETTINGS);
      const p = system.makePlayer(own, me.rd, me.vol);
      const o = system.makePlayer(opponent.rating, opponent.rd, RATING_SETTINGS.vol);
      system.updateRatings([[p, o, score]]);
      return { rating: me.rating + (p.getRating() - own), rd: p.getRd(), vol: p.getVol() };
    });
  };
  return [rate(0), rate(1)];
}
