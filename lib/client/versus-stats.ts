import { CELL_CHARS, type GameEvent } from '@/lib/engine';
import { NO_TALLY, rates, tallyEvents, type Rates, type StatsTally } from '@/lib/versus/stats';

/**
 * Live APM / PPS / VS of both fields in a versus game (the definitions and the tally: lib/versus/stats.ts).
 * Both seats' numbers come from what the browser already runs: its own game's events, and the
 * opponent's game re-run from their frames. The garbage rows are read afresh from the field as
 * drawn at the end of each frame, which also puts right a frame the seat played again from its
 * checkpoint, whose events the page never sees.
 */
export type { StatsTally } from '@/lib/versus/stats';
export { NO_TALLY } from '@/lib/versus/stats';
export type LiveStats = Rates;

// The engine's garbage colour (8): what a drawn field shows for a garbage cell.
const GARBAGE = CELL_CHARS[8]!;

/** The rows of a drawn field (top row first) that hold garbage, as row numbers from the bottom. */
export function garbageRowsOf(board: readonly string[]): number[] {
  const rows: number[] = [];
  for (let i = board.length - 1; i >= 0; i--) if (board[i]!.includes(GARBAGE)) rows.push(board.length - 1 - i);
  return rows;
}

/** One frame: its events in order, then the garbage rows as the frame's field shows them. */
export function tallyFrame(t: StatsTally, events: readonly GameEvent[], board: readonly string[]): StatsTally {
  return { ...tallyEvents(t, events), garbageRows: garbageRowsOf(board) };
}

/** The rates after `ticks` of the game with `pieces` placed (zero before the first tick). */
export const liveStats = (t: StatsTally, pieces: number, ticks: number): LiveStats => rates(t, pieces, ticks);

type Field = { tick: number; pieces: number; board: readonly string[] };
/** How often the page is told the numbers: a React render per frame would be the loop's cost, not the reader's gain. */
const SHOW_EVERY_MS = 250;

/**
 * Both fields' tallies through a match, fed every frame: reset when a new game of the set starts,
 * and handed out (this seat's, then the opponent's) at most every SHOW_EVERY_MS.
 */
export class VersusStatsFeed {
  private game = -1;
  private tallies: [StatsTally, StatsTally] = [NO_TALLY, NO_TALLY];
  private shown = Number.NEGATIVE_INFINITY;

  constructor(private readonly show: (stats: [LiveStats, LiveStats]) => void) {}

  frame(game: number, own: Field, ownEvents: readonly GameEvent[], opponent: Field | null, opponentEvents: readonly GameEvent[], now: number): void {
    if (game !== this.game) {
      this.game = game;
      this.tallies = [NO_TALLY, NO_TALLY];
      this.shown = Number.NEGATIVE_INFINITY;
    }
    this.tallies[0] = tallyFrame(this.tallies[0], ownEvents, own.board);
    if (opponent) this.tallies[1] = tallyFrame(this.tallies[1], opponentEvents, opponent.board);
    if (now - this.shown < SHOW_EVERY_MS) return;
    this.shown = now;
    this.show([liveStats(this.tallies[0], own.pieces, own.tick), opponent ? liveStats(this.tallies[1], opponent.pieces, opponent.tick) : liveStats(NO_TALLY, 0, 0)]);
  }
}
