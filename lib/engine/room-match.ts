import { GameConfigError } from './errors';
import { MAX_MATCH_SEED_LENGTH } from './match';
import { RoomGame, type RoomGameConfig } from './referee';

/**
 * A room's set: games one after another until a team has won the rules' `firstTo` (a draw is
 * replayed). Game n is played with seed `${seed}.${n}`, as a versus set's.
 */
export class RoomMatch {
  readonly games: RoomGame[] = [];
  /** Games won, by team number. */
  readonly score = new Map<number, number>();

  constructor(private readonly config: RoomGameConfig) {
    if (config.seed.length < 1 || config.seed.length > MAX_MATCH_SEED_LENGTH) throw new GameConfigError(`match seed must be 1–${MAX_MATCH_SEED_LENGTH} characters`);
    this.games.push(this.newGame());
  }

  get current(): RoomGame {
    return this.games[this.games.length - 1]!;
  }

  /** The team that has won the set, once one has. */
  get winner(): number | null {
    for (const [team, wins] of this.score) if (wins >= this.config.rules.firstTo) return team;
    return null;
  }

  /** Counts the current game once decided and starts the next; false while it is played or once the set is won. */
  advance(): boolean {
    const outcome = this.current.outcome;
    if (!outcome || this.winner !== null) return false;
    if (outcome.winner !== null) this.score.set(outcome.winner, (this.score.get(outcome.winner) ?? 0) + 1);
    if (this.winner !== null) return false;
    this.games.push(this.newGame());
    return true;
  }

  private newGame(): RoomGame {
    return new RoomGame({ ...this.config, seed: `${this.config.seed}.${this.games.length}` });
  }
}
