/**
 * The versus half of the live channel, server → browser (the browser's messages are in
 * protocol.ts with the rest): zod schemas both sides parse, their types, and one number. The flow
 * is in docs/decisions/0017-versus-live.md.
 */
import { z } from 'zod';
import { COLS, MAX_FIRST_TO, MAX_GARBAGE_SIZE, VERSUS_MODE_NAMES, type GameEndReason, type VersusMode } from '@/lib/engine';
import { countSchema, handlingSchema, intTuples, livePlayerSchema, liveStatsSchema, MAX_TICK, piecesSchema, tickSchema, wireEventsSchema } from '@/lib/live/wire';
import { BAND_IDS } from '@/lib/versus/bands';

export const seatSchema = z.union([z.literal(0), z.literal(1)]);
export type Seat = z.infer<typeof seatSchema>;

/**
 * A connected seat whose stream trails the match clock by more than this loses the game (the
 * server's lag check): each second behind is a second to think that the opponent did not have, so
 * the bound is tight, tighter in Race 30 where only speed counts. The browser catches up at most
 * this much at once after a stalled tab, since dropping the backlog would leave its game behind.
 */
export const VERSUS_MAX_LAG_MS: Readonly<Record<VersusMode, number>> = { battle: 3_000, race30: 2_000 };

const versusMode = z.enum(VERSUS_MODE_NAMES);
const matchId = z.string().min(1).max(64);
const game = z.number().int().min(0).max(MAX_FIRST_TO * 2 + 8);
const score = z.tuple([countSchema, countSchema]);
/** A whole game's inputs: an hour of play at far more than anyone presses. */
const gameEvents = wireEventsSchema(MAX_TICK);
/** As a record, so a reason the referee adds fails to compile here until it is listed. */
const GAME_END_REASONS = { topOut: 1, goal: 1, forfeit: 1 } as const satisfies Record<GameEndReason, 1>;
const gameEndReason = z.enum(Object.keys(GAME_END_REASONS) as [GameEndReason, ...GameEndReason[]]);

const band = z.enum(BAND_IDS);

/** Why a rematch offer ended without a match (a new match ends it with `match` instead). */
export const REMATCH_END_REASONS = ['left', 'declined', 'expired', 'refused'] as const;
export type RematchEnd = (typeof REMATCH_END_REASONS)[number];
/**
 * A seat's rating change in a ranked match; `bands` before and after (null while provisional;
 * absent when the server could not read the edges), and `placement` after this match while
 * placement lasts ("placement 4/10"). A band a newer server added reads as no bands here: the
 * result still shows, with the rating change alone.
 */
export const ratingChangeSchema = z.object({
  before: z.number(),
  after: z.number(),
  rdAfter: z.number(),
  bands: z.tuple([band.nullable(), band.nullable()]).optional().catch(undefined),
  placement: z.object({ played: countSchema, of: countSchema }).optional().catch(undefined),
});
export type RatingChange = z.infer<typeof ratingChangeSchema>;

/** A room as both its seats see it. `you` is the receiving connection's seat. */
export const roomViewSchema = z.object({
  code: z.string(),
  mode: versusMode,
  firstTo: z.number().int().min(1).max(MAX_FIRST_TO),
  seats: z.tuple([livePlayerSchema, livePlayerSchema.nullable()]),
  ready: z.tuple([z.boolean(), z.boolean()]),
  you: seatSchema,
  /** The maker's connection dropped: its seat is kept for its page a while (additive in version 2). */
  away: z.literal(true).optional(),
});
export type RoomView = z.infer<typeof roomViewSchema>;

/**
 * Garbage that joined a seat's queue: [tick, rows, hole column]. It may rise from tick + the rules'
 * garbage delay (lib/engine RULES); the column is the server's draw, never the generator's state.
 */
export type WireGarbage = [tick: number, rows: number, column: number];
const wireGarbage = intTuples<WireGarbage>([[0, MAX_TICK], [1, MAX_GARBAGE_SIZE], [0, COLS - 1]], MAX_TICK);

/**
 * One seat's game so far: what a spectator or the opponent needs to draw it from tick 0. Up to
 * `tick` only: a seat's inputs from the moment it held pieces the other seat has not been dealt
 * wait until it has (they would tell the other what is coming).
 */
export const seatSoFarSchema = z.object({
  player: livePlayerSchema,
  pieces: piecesSchema,
  events: gameEvents,
  garbage: wireGarbage,
  tick: tickSchema,
  stats: liveStatsSchema,
});
export type SeatSoFar = z.infer<typeof seatSoFarSchema>;

/** Every versus message from the server, by its type `t`. */
export const versusServerMessages = [
  z.object({ t: z.literal('queued'), mode: versusMode, ranked: z.boolean(), waiting: countSchema }),
  z.object({ t: z.literal('unqueued') }),
  z.object({ t: z.literal('room'), room: roomViewSchema }),
  z.object({ t: z.literal('room_closed'), code: z.string(), reason: z.enum(['left', 'started', 'expired']) }),
  z.object({
    t: z.literal('match'),
    matchId,
    seat: seatSchema,
    players: z.tuple([livePlayerSchema, livePlayerSchema]),
    mode: versusMode,
    firstTo: z.number().int().min(1).max(MAX_FIRST_TO),
    ranked: z.boolean(),
    rulesVersion: z.number().int(),
    /** Both seats' handling (the opponent's field is re-simulated with theirs) and this seat's preview length. */
    handling: z.tuple([handlingSchema, handlingSchema]),
    nextCount: countSchema,
    resumeToken: z.string(),
    /** A dropped player may come back within this many ms (vresume); after it the game is lost. */
    resumeWindowMs: countSchema,
  }),
  z.object({
    t: z.literal('vstart'),
    matchId,
    game,
    /** This seat's current piece, preview and one spare. */
    pieces: piecesSchema,
    /** The game's clock starts this long after this message (the countdown); negative when sent again to a seat that came back after it started. */
    startsInMs: z.number(),
    score,
  }),
  /**
   * Garbage for the receiver: it joined the queue of the receiver's game at `tick` (the server's
   * copy was there when the sender's lock was played), with its hole `column`; it rises from
   * `tick` + the rules' garbage delay. A browser already past `tick` plays its game again from there.
   */
  z.object({ t: z.literal('garbage'), matchId, game, id: countSchema, size: z.number().int().min(1).max(MAX_GARBAGE_SIZE), column: z.number().int().min(0).max(COLS - 1), tick: tickSchema }),
  /** One seat's increment, to the opponent and to spectators. */
  z.object({
    t: z.literal('vframe'),
    matchId,
    game,
    seat: seatSchema,
    from: countSchema,
    pieces: piecesSchema,
    events: gameEvents,
    garbage: wireGarbage,
    tick: tickSchema,
    stats: liveStatsSchema,
    /** Rows waiting in this seat's garbage meter. */
    meter: countSchema,
  }),
  z.object({
    t: z.literal('vgame'),
    matchId,
    game,
    winner: seatSchema.nullable(),
    reason: gameEndReason,
    score,
    /** Each seat's tick when the game was decided: what was played after it does not count, and fields are shown there. */
    ticks: z.tuple([tickSchema, tickSchema]),
    /** The game's pieces not yet in any vframe (from this sequence index): both fields can be drawn to `ticks`. */
    from: countSchema,
    pieces: piecesSchema,
  }),
  z.object({
    t: z.literal('vover'),
    matchId,
    winner: seatSchema,
    score,
    reason: z.enum(['games', 'forfeit']),
    ranked: z.boolean(),
    /** Set once the match is stored (then /versus/matches/{matchId} plays it). */
    stored: z.boolean(),
    ratings: z.tuple([ratingChangeSchema, ratingChangeSchema]).optional(),
    /** The leaver played too few pieces to count: the winner gains no rating and no weekly win. */
    noContest: z.boolean().optional(),
    /** Not stored yet (the database is away): the server keeps trying, and sends vover again once it is. */
    pending: z.boolean().optional(),
  }),
  z.object({ t: z.literal('vaway'), matchId, seat: seatSchema, back: z.boolean(), windowMs: countSchema }),
  /** After vresume: where this seat's game stands, to rebuild it and resend unacknowledged batches. */
  z.object({
    t: z.literal('vresumed'),
    matchId,
    game,
    lastSeq: countSchema,
    tick: tickSchema,
    pieces: piecesSchema,
    /** Garbage in this seat's game so far: [id, tick, rows, column]. */
    garbage: intTuples<[id: number, tick: number, rows: number, column: number]>([[0, 2 ** 31], [0, MAX_TICK], [1, MAX_GARBAGE_SIZE], [0, COLS - 1]], MAX_TICK),
    score,
    playing: z.boolean(),
  }),
  z.object({
    t: z.literal('vwatching'),
    matchId,
    mode: versusMode,
    firstTo: z.number().int().min(1).max(MAX_FIRST_TO),
    game,
    score,
    nextCount: countSchema,
    handling: z.tuple([handlingSchema, handlingSchema]),
    rulesVersion: z.number().int(),
    seats: z.tuple([seatSoFarSchema, seatSoFarSchema]),
  }),
  /**
   * A quick match is over and its pair may play again (docs/decisions/0017-versus-live.md): who
   * wants to, and how long the offer stands. Sent when it opens and each time it changes.
   */
  z.object({ t: z.literal('rematch_state'), matchId, wants: z.tuple([z.boolean(), z.boolean()]), expiresInMs: countSchema }),
  /** No rematch of this match: a player left or declined, the offer expired, or the ranked rules refused the pair (`message` says which). */
  z.object({ t: z.literal('rematch_over'), matchId, reason: z.enum(REMATCH_END_REASONS), message: z.string().max(300).optional() }),
] as const;
export type VersusServerMessage = z.infer<(typeof versusServerMessages)[number]>;

/** GET /api/live's `matches`: the versus matches being played now. */
export type LiveMatchSummary = {
  matchId: string;
  mode: VersusMode;
  players: [z.infer<typeof livePlayerSchema>, z.infer<typeof livePlayerSchema>];
  score: [number, number];
  firstTo: number;
  ranked: boolean;
  spectators: number;
  startedAt: string;
};
