import { CELL_CHARS, TICKS_PER_SECOND, type GameEvent } from '@/lib/engine';

/**
 * Live APM / PPS / VS of one field in a versus game, as TETR.IO defines them: APM is attack per
 * minute, PPS pieces per second, VS (attack + garbage rows cleared) per second × 100. Attack is
 * the lock's attack-table value before cancelling (TETR.IO counts lines that cancel incoming
 * garbage as sent), so both seats' numbers come from what the browser already runs: its own
 * game's events, and the opponent's game re-run from their frames.
 *
 * The engine does not tell which cleared rows were garbage: the tally keeps the garbage rows'
 * places (0 = bottom row), read from the field as drawn at the end of each frame and moved by the
 * frame's rises and clears. Reading them afresh each frame also puts right a frame the seat played
 * again from its checkpoint, whose events the page never sees.
 */
export type StatsTally = { readonly attack: number; readonly garbageCleared: number; readonly garbageRows: readonly number[] };
export type LiveStats = { apm: number; pps: number; vs: number };

export const NO_TALLY: StatsTally = { attack: 0, garbageCleared: 0, garbageRows: [] };

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
  let { attack, garbageCleared } = t;
  let rows = t.garbageRows;
  for (const e of events) {
    if (e.type === 'lock') {
      attack += e.attack;
      if (e.clearedRows.length === 0) continue;
      garbageCleared += rows.filter((r) => e.clearedRows.includes(r)).length;
      rows = rows.filter((r) => !e.clearedRows.includes(r)).map((r) => r - e.clearedRows.filter((c) => c < r).length);
    } else if (e.type === 'garbageRise') {
      rows = [...Array.from({ length: e.rows }, (_, i) => i), ...rows.map((r) => r + e.rows)];
    }
  }
  return { attack, garbageCleared, garbageRows: garbageRowsOf(board) };
}

/** The rates after `ticks` of the game with `pieces` placed (zero before the first tick). */
export function liveStats(t: StatsTally, pieces: number, ticks: number): LiveStats {
  if (ticks <= 0) return { apm: 0, pps: 0, vs: 0 };
  const seconds = ticks / TICKS_PER_SECOND;
  return { apm: (t.attack * 60) / seconds, pps: pieces / seconds, vs: ((t.attack + t.garbageCleared) * 100) / seconds };
}

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
