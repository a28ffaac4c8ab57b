/**
 * The versus half of the live channel, server → browser (the browser's messages are validated in
 * protocol.ts with the rest). Types and one number, shared by lib/server/live and lib/client; the flow is
 * in docs/decisions/0017-versus-live.md.
 */
import type { GameEndReason, PieceType, VersusMode } from '@/lib/engine';
import type { LivePlayer, LiveStats, WireAck, WireEvent } from '@/lib/live/protocol';

export type Seat = 0 | 1;

/**
 * A connected seat whose stream trails the match clock by more than this loses the game (the
 * server's lag check); the browser catches up at most this much at once after a stalled or hidden
 * tab, since dropping the backlog would leave its game behind the clock for good.
 */
export const VERSUS_MAX_LAG_MS = 10_000;
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

/** One seat's game so far: what a spectator or the opponent needs to draw it from tick 0. */
export type SeatStream = {
  player: LivePlayer;
  pieces: PieceType[];
  events: WireEvent[];
  /** Garbage that joined this seat's queue: [tick, rows]. */
  garbage: Array<[number, number]>;
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
      /** The hole generator's state (holeState(seed)): the browser's garbage holes match the server's. */
      holes: number;
      /** The game's clock starts this long after this message (the countdown); negative when sent again to a seat that came back after it started. */
      startsInMs: number;
      score: [number, number];
    }
  | { t: 'vdeal'; matchId: string; game: number; from: number; pieces: PieceType[] }
  /** Garbage for the receiver: acknowledge it (vinputs.acks) at the tick it joins the queue, by `deadline`. */
  | { t: 'garbage'; matchId: string; game: number; id: number; size: number; deadline: number }
  /** A batch applied; `applied` is the garbage that joined the queue in it ([id, tick]): if one was forced at its deadline, the browser's game must follow. */
  | { t: 'vack'; matchId: string; game: number; seq: number; tick: number; applied: WireAck[] }
  /** One seat's increment, to the opponent and to spectators. */
  | {
      t: 'vframe';
      matchId: string;
      game: number;
      seat: Seat;
      from: number;
      pieces: PieceType[];
      events: WireEvent[];
      garbage: Array<[number, number]>;
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
      holes: number;
      /** Garbage already in this seat's game ([id, tick, rows]) and still to acknowledge. */
      garbage: Array<[number, number, number]>;
      pending: Array<{ id: number; size: number; deadline: number }>;
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
      holes: number;
      seats: [SeatStream, SeatStream];
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
