// glicko2 1.2.2 ships plain JavaScript without types: the part of its API lib/server/versus/rating.ts uses.
declare module 'glicko2' {
  export interface Glicko2Settings {
    tau: number;
    rating: number;
    rd: number;
    vol: number;
  }
  export interface Glicko2Player {
    getRating(): number;
    getRd(): number;
    getVol(): number;
  }
  /** [player, opponent, outcome]: 1 a win, 0 a loss, 0.5 a draw, from the first player's side. */
  export type Glicko2Match = [Glicko2Player, Glicko2Player, number];
  export class Glicko2 {
    constructor(settings?: Partial<Glicko2Settings>);
    makePlayer(rating?: number, rd?: number, vol?: number): Glicko2Player;
    updateRatings(matches: Glicko2Match[]): void;
    predict(a: Glicko2Player, b: Glicko2Player): number;
  }
}
