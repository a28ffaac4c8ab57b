/**
 * The versus half of the live channel, server → browser (the browser's messages are validated in
 * protocol.ts with the rest). Types and one number, shared by lib/server/live and lib/client; the flow is
 * in docs/decisions/0017-versus-live.md.
 */
import type { GameEndReason, PieceType, VersusMode } from '@/lib/engine';
import type { LivePlayer, LiveStats, WireEvent } from '@/lib/live/protocol';

export type Seat = 0 | 1;

/**
 * A connected seat whose stream trails the match clock by more than this loses the game (the
 * server's lag check): each second behind is a second to think that the opponent did not have, so
 * the bound is tight, tighter in Race 30 where only speed counts. The browser catches up at most
 * this much at once after a stalled tab, since dropping the backlog would leave its game behind.
 */
export const VERSUS_MAX_LAG_MS: Readonly<Record<VersusMode, number>> = { battle: 3_000, race30: 2_000 };
export type RatingChange = { before: number; after: number; rdAfter: number };

/** A room as both its seats see it. `you` is the receiving connection's seat. */
export type RoomView = {
  code: string;
  mode: VersusMode;
  firstTo: number;
  seats: [LivePlayer, LivePlayer | null];
  ready: [boolean, boolean];
  you: Seat;
};

/**
 * Garbage that joined a seat's queue: [tick, rows, hole column]. It may rise from tick + the rules'
 * garbage delay (lib/engine RULES); the column is the server's draw, never the generator's state.
 */
export type WireGarbage = [tick: number, rows: number, column: number];

/**
 * One seat's game so far: what a spectator or the opponent needs to draw it from tick 0. Up to
 * `tick` only: a seat's inputs from the moment it held pieces the other seat has not been dealt
 * wait until it has (they would tell the other what is coming).
 */
export type SeatSoFar = {
  player: LivePlayer;
  pieces: PieceType[];
  events: WireEvent[];
  garbage: WireGarbage[];
  tick: number;
  stats: LiveStats;
};

export type VersusServerMessage =
  | { t: 'queued'; mode: VersusMode; ranked: boolean; waiting: number }
  | { t: 'unqueued' }
  | { t: 'room'; room: RoomView }
  | { t: 'room_closed'; code: string; reason: 'left' | 'started' | 'expired' }
  | {
      t: 'match';
      matchId: string;
      seat: Seat;
      players: [LivePlayer, LivePlayer];
      mode: VersusMode;
      firstTo: number;
      ranked: boolean;
      rulesVersion: number;
      /** Both seats' handling (the opponent's field is re-simulated with theirs) and this seat's preview length. */
      handling: [SeatHandling, SeatHandling];
      nextCount: number;
      resumeToken: string;
      /** A dropped player may come back within this many ms (vresume); after it the game is lost. */
      resumeWindowMs: number;
    }
  | {
      t: 'vstart';
      matchId: string;
      game: number;
      /** This seat's current piece, preview and one spare. */
      pieces: PieceType[];
      /** The game's clock starts this long after this message (the countdown); negative when sent again to a seat that came back after it started. */
      startsInMs: number;
      score: [number, number];
    }
  | { t: 'vdeal'; matchId: string; game: number; from: number; pieces: PieceType[] }
  /**
   * Garbage for the receiver: it joined the queue of the receiver's game at `tick` (the server's
   * copy was there when the sender's lock was played), with its hole `column`; it rises from
   * `tick` + the rules' garbage delay. A browser already past `tick` plays its game again from there.
   */
  | { t: 'garbage'; matchId: string; game: number; id: number; size: number; column: number; tick: number }
  /** A batch applied: the server's copy of this seat's game is at `tick`. */
  | { t: 'vack'; matchId: string; game: number; seq: number; tick: number }
  /** One seat's increment, to the opponent and to spectators. */
  | {
      t: 'vframe';
      matchId: string;
      game: number;
      seat: Seat;
      from: number;
      pieces: PieceType[];
      events: WireEvent[];
      garbage: WireGarbage[];
      tick: number;
      stats: LiveStats;
      /** Rows waiting in this seat's garbage meter. */
      meter: number;
    }
  | {
      t: 'vgame';
      matchId: string;
      game: number;
      winner: Seat | null;
      reason: GameEndReason;
      score: [number, number];
      /** Each seat's tick when the game was decided: what was played after it does not count, and fields are shown there. */
      ticks: [number, number];
      /** The game's pieces not yet in any vframe (from this sequence index): both fields can be drawn to `ticks`. */
      from: number;
      pieces: PieceType[];
    }
  | {
      t: 'vover';
      matchId: string;
      winner: Seat;
      score: [number, number];
      reason: 'games' | 'forfeit';
      ranked: boolean;
      /** Set once the match is stored (then /versus/matches/{matchId} plays it). */
      stored: boolean;
      ratings?: [RatingChange, RatingChange];
      /** The leaver played too few pieces to count: the winner gains no rating and no weekly win. */
      noContest?: boolean;
    }
  | { t: 'vaway'; matchId: string; seat: Seat; back: boolean; windowMs: number }
  /** After vresume: where this seat's game stands, to rebuild it and resend unacknowledged batches. */
  | {
      t: 'vresumed';
      matchId: string;
      game: number;
      lastSeq: number;
      tick: number;
      pieces: PieceType[];
      /** Garbage in this seat's game so far: [id, tick, rows, column]. */
      garbage: Array<[id: number, tick: number, rows: number, column: number]>;
      score: [number, number];
      playing: boolean;
    }
  | {
      t: 'vwatching';
      matchId: string;
      mode: VersusMode;
      firstTo: number;
      game: number;
      score: [number, number];
      nextCount: number;
      handling: [SeatHandling, SeatHandling];
      rulesVersion: number;
      seats: [SeatSoFar, SeatSoFar];
    };

type SeatHandling = { das: number; arr: number; sdf: number | 'instant'; dasCut: boolean };

/** GET /api/live's `matches`: the versus matches being played now. */
export type LiveMatchSummary = {
  matchId: string;
  mode: VersusMode;
  players: [LivePlayer, LivePlayer];
  score: [number, number];
  firstTo: number;
  ranked: boolean;
  spectators: number;
  startedAt: string;
};
