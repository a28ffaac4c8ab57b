/**
 * The live channel's messages (WebSocket `/api/live`, JSON text frames), spoken by the browser
 * (lib/client) and the server (lib/server/live). Version 3; docs/decisions/0010-live-protocol.md
 * explains the flow, the pacing, the pause budget and the reconnect window. Every message is an
 * object with a type `t`; each side parses what it receives with the schemas here and in
 * versus.ts (the server with clientMessageSchema, the browser with serverMessageSchema), which
 * bound every size before any work is done. Changes stay additive: a new optional field or a new
 * type. A new error code or unranked reason reaches an older page as server_error or as no reason
 * (`.catch` below); a new value of any other enum is a new protocol version. The lists below are
 * checked against the schemas by a test (live-protocol-list).
 *
 * Version 2: a seat's stream is one family whatever it plays. Its batches (`inputs`) and their
 * answers (`ack`, `deal`) name the stream by its id: a solo game's, or a versus or room seat's
 * match id (`game`: which game of the set).
 * Version 3: watching, resuming a seat and leaving are one message each, naming what they are for
 * with `of` {kind, id}: a solo `game`, a versus `match`, a room's `set` (its match id) or a `room`
 * (its code); a solo game's resume is no longer part of the hello. An older page is told `unsupported_version` and reloads.
 *
 * Client → server                                   Server → client
 *   hello   {v}                                       welcome  {v, player}
 *   start   {mode, handling, nextCount, countdown?}   started  {gameId, ..., pieces, holes?, resumeToken}
 *   inputs  {stream, game?, seq, tick, events, ...}   deal     {stream, game?, from, pieces, holes?}
 *   pause / unpause {gameId, tick}                    ack      {stream, game?, seq, tick}
 *   watch / unwatch {of: game, match or room}         status   {gameId, ranked, reason?, pauses, spectators}
 *   resume  {of: game, match or set, token, setup?}   over     {gameId, seed, result?, ranked, reason?}
 *   leave   {of: match or room}                       resumed  {gameId, lastSeq, tick, from, pieces, holes?}
 *   ping    {n}
 *                                                     watching {gameId, ..., state, pieces, events, tick}
 *                                                     frame    {gameId, events, pieces, holes?, tick, stats}
 *                                                     ended    {gameId, replayId?}
 *                                                     error    {code, message, gameId?, seq?}
 *                                                     pong     {n}
 *
 * Versus (docs/decisions/0017-versus-live.md; a seat's batches, resume, leave and watch are the ones above), server → client in versus.ts:
 *   queue   {mode, ranked, handling, nextCount}       queued   {mode, ranked, waiting}
 *   unqueue                                           unqueued
 *   room_create {mode, firstTo, handling, nextCount}  room     {code, mode, firstTo, seats, ready, you}
 *   room_join {code, handling, nextCount}             room_closed {code, reason}
 *   room_set {code, mode, firstTo} (host only)        match    {matchId, seat, players, mode, firstTo, ranked, resumeToken, ...}
 *   ready   {code, ready}                             vstart   {matchId, game, pieces, startsInMs, score}
 *   room_leave {code}                                 garbage  {matchId, game, id, size, column, tick}
 *   rematch {matchId, want}                           vframe   {matchId, game, seat, from, pieces, events, garbage, tick, stats}
 *   spar    {mode, firstTo, bot, handling, nextCount}
 *                                                     vgame    {matchId, game, winner, reason, score}
 *                                                     vover    {matchId, winner, score, reason, ranked, ratings?, stored}
 *                                                     vaway    {matchId, seat, back, windowMs}
 *                                                     vresumed {matchId, game, lastSeq, tick, pieces, garbage, score}
 *                                                     vwatching {matchId, ..., both seats so far}
 *                                                     rematch_state {matchId, wants, expiresInMs}
 *                                                     rematch_over {matchId, reason, message?}
 *
 * Rooms of 2–16 (decision 0034; a seat's batches are `inputs` above, `targets` theirs), both directions in rooms.ts:
 *   rcreate {mode, size, rules, bots, handling}       rroom    {code, mode, rules, host, seats, you, terms}
 *   rjoin   {code, handling}                          rclosed  {code, reason}
 *   rready  {code, ready, terms?}                     rmatch   {matchId, code, seat, players, rules, ...}
 *   rstart  {code} (host only)                        rbegin   {matchId, game, pieces, startsInMs, score}
 *   (leave, resume and watch are the ones above)      rgarbage {matchId, game, from, size, column, tick}
 *                                                     rframes  {matchId, game, from, pieces, seats}
 *                                                     rko      {matchId, game, seat, tick, why}
 *   rkick   {code, seat} (host only)                  rgame    {matchId, game, winner, reason, placements, score}
 *   rhost   {code, seat} (host only)                  rover    {matchId, winner, score, stored}
 *   rrules  {code, mode, rules} (host, in the lobby)  rresumed {matchId, game, lastSeq, tick, pieces, garbage}
 *   rbot    {code, seat, bot} (host, in the lobby)
 *
 * Ranked 2v2 (decision 0036), both directions in teams.ts; the set is a room's (r…):
 *   tparty  {handling}                                tparty   {code, members}
 *   tjoin   {code, handling}                          tqueued  {pair, waiting}
 *   tqueue  {handling}                                tunqueued {reason}
 *   tleave
 *
 * Errors (`error.code`): bad_message, too_large, unsupported_version, rate_limited, too_many_games,
 *   out_of_order, unknown_game, not_your_game, game_over, bad_inputs, ahead_of_clock, desync,
 *   resume_failed, server_error, not_live, setup_mismatch, banned, sign_in_required, unknown_room,
 *   room_full, not_room_host, unknown_match, not_your_match, already_playing, not_eligible, seat_taken.
 */
import { z } from 'zod';
import { cheeseOf, COLS, END_NAMES, HOLES_AHEAD, KEYS, keyId, MAX_FIRST_TO, MAX_REPLAY_TICKS, MODE_NAMES, MODES, RANKED_MODE_NAMES, NEXT_COUNT_MAX, NEXT_COUNT_MIN, PIECES, VERSUS_MODE_NAMES } from '@/lib/engine';
import type { EndReason, GameState, Key, Mode, PieceType } from '@/lib/engine';
import { versusServerMessages } from '@/lib/live/versus';
import { ROOM_LAST_GAME, roomClientMessages, roomServerMessages, wireTargetsSchema, type RoomSeatCommand } from '@/lib/live/rooms';
import { teamClientMessages, teamServerMessages } from '@/lib/live/teams';
import { botSpecSchema } from '@/lib/bot/spec';
import {
  countSchema, handlingSchema, livePlayerSchema, liveStatsSchema, MAX_TICK, piecesSchema, tickSchema, wireEventsSchema, type LivePlayer, type LiveStats, type WireEvent,
} from '@/lib/live/wire';

export const LIVE_PROTOCOL_VERSION = 3;
export const LIVE_PATH = '/api/live';
/**
 * `/api/live?bundles=1`: the client takes a text frame holding a JSON array of messages, in order,
 * besides frames of one message; the server then writes what one incoming message causes in one
 * frame. A client that does not ask gets one message per frame, as before.
 */
export const LIVE_BUNDLES_PARAM = 'bundles';

/** The messages in one server text frame (one, or a bundle's array); none if it is not JSON. */
export function messagesOfFrame(text: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return Array.isArray(value) ? value : [value];
}
/** The largest text frame either side sends; the server closes the socket on a bigger one (1009), unread. */
export const MAX_LIVE_MESSAGE_BYTES = 16_384;
/** At most this many input events in one batch (a batch covers ~100–250 ms of play). */
export const MAX_BATCH_EVENTS = 256;
/**
 * A batch may run the game's clock at most this many ticks (60 s) past the one before it: the
 * server simulates a batch in one go, and an adopted game's catch-up could otherwise ask it for an
 * hour at once. Live play never comes near it; a catch-up or a resend is cut to fit.
 */
export const MAX_BATCH_TICKS = 3_600;
/** Send a batch at least this often while playing (ms), and at once after a piece locks. */
export const BATCH_INTERVAL_MS = 100;
/**
 * Batches the server refused go again at most this often (ms), so its per-second message budget
 * (`LIVE_LIMITS.messagesPerSecond`, 40) has refilled; and at most this many at once, half of it.
 */
export const RESEND_AFTER_MS = 1_000;
export const RESEND_AT_MOST = 20;
/**
 * A solo page sends its game's batches and pauses at most this many a second, queueing the rest in
 * order: a long game's whole log sent again after a restart is hundreds of batches, and the server
 * answers past `LIVE_LIMITS.messagesPerSecond` (40) with refusals and closes the socket at 80. Half
 * the budget, so two of the page's seconds read in one of the server's (a network hiccup) still fit.
 * Live play sends a batch each 100 ms and one at a lock, under it at up to 10 pieces a second.
 */
export const PAGE_SENDS_PER_SECOND = 20;

const tick = tickSchema;
const gameId = z.string().regex(/^[a-z0-9]{8,40}$/, 'not a game id');
const wireEvents = wireEventsSchema(MAX_BATCH_EVENTS);

/**
 * Dig: hole columns of garbage rows, dealt like pieces (lib/engine/deal.ts HOLES_AHEAD), never
 * more in one message than a game has rows. `from` is the index of the first in the game's rows.
 */
/**
 * The most hole columns one game deals (a resume carries them all): Dig's rows, or for Survival one
 * per row its clock can raise in the longest game (each rise at least `min` ticks after the last).
 */
export const MAX_HOLE_COLUMNS = HOLES_AHEAD + Math.max(0, ...MODE_NAMES.map((m) => {
  const cheese = cheeseOf(MODES[m]);
  if (!cheese) return 0;
  return cheese.rise ? Math.ceil(MAX_REPLAY_TICKS / cheese.rise.min) : cheese.rows;
}));
const holeColumns = z.array(z.number().int().min(0).max(COLS - 1)).max(MAX_HOLE_COLUMNS);
const holeDeal = z.object({ from: countSchema, columns: holeColumns });

const matchId = gameId;
export const roomCodeSchema = z.string().regex(/^[A-Z2-9]{6}$/, 'not a room code');
const nextCount = z.number().int().min(NEXT_COUNT_MIN).max(NEXT_COUNT_MAX);
/** A solo game's handling and preview, as `start` declares them; its live ticket keeps them (liveSetup). */
export const gameSetupSchema = z.object({ handling: handlingSchema, nextCount });
export type GameSetup = z.infer<typeof gameSetupSchema>;
/** How many games win a set of a versus room or rematch; one home (the checkpoints of rooms of two parse it too). */
export const firstToSchema = z.number().int().min(1).max(MAX_FIRST_TO);
const firstTo = firstToSchema;

/** The last game of a set either kind of match can reach (each host bounds its own). */
const setGame = z.number().int().min(0).max(Math.max(MAX_FIRST_TO * 2 + 8, ROOM_LAST_GAME));
/** A seat's stream: a solo game's id, or the match id of a versus or room seat (the seat is the socket's). */
const streamId = z.string().regex(/^[a-z0-9]{8,40}$/, 'not a stream id');

/**
 * A seat's batch, one family for solo games, versus and rooms (protocol 2), keyed by its stream:
 * the server finds the stream among those it told this socket it plays (lib/server/live/streams.ts).
 */
export const inputsSchema = z.object({
  t: z.literal('inputs'),
  stream: streamId,
  /** The game of a set (0, 1, …; absent for a solo game): a batch for a game already decided is acknowledged and dropped. */
  game: setGame.optional(),
  /** 1, 2, 3, … per game; a batch already acknowledged is acknowledged again, a gap is an error. */
  seq: z.number().int().min(1).max(1_000_000),
  /** The browser's tick after the batch: every event is before it, and the clock has reached it. */
  tick,
  events: wireEvents,
  /** The browser's play hash at `tick` (DealtGame.playHash): a mismatch is reported at once. */
  hash: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  /** A room seat's target changes (decision 0034); refused on any other stream. */
  targets: wireTargetsSchema.optional(),
});
export type InputsMessage = z.infer<typeof inputsSchema>;
/** A batch of a seat in a set (versus or a room): it names its game. */
export type SetBatch = InputsMessage & { game: number };
export const isSetBatch = (m: InputsMessage): m is SetBatch => m.game !== undefined;

/** Versus messages from the browser; the server's answers are typed in lib/live/versus.ts. */
const versusClientMessages = [
  z.object({ t: z.literal('queue'), mode: z.enum(VERSUS_MODE_NAMES), ranked: z.boolean(), handling: handlingSchema, nextCount }),
  z.object({ t: z.literal('unqueue') }),
  z.object({ t: z.literal('room_create'), mode: z.enum(VERSUS_MODE_NAMES), firstTo, handling: handlingSchema, nextCount }),
  z.object({ t: z.literal('room_join'), code: roomCodeSchema, handling: handlingSchema, nextCount }),
  z.object({ t: z.literal('room_set'), code: roomCodeSchema, mode: z.enum(VERSUS_MODE_NAMES), firstTo }),
  z.object({ t: z.literal('ready'), code: roomCodeSchema, ready: z.boolean() }),
  /** Gives up a seat in the room on purpose: the maker's closes it at once, where a drop keeps it a while. */
  z.object({ t: z.literal('room_leave'), code: roomCodeSchema }),
  /** After a quick match: `want` offers or accepts the same pair again; false declines it for both. */
  z.object({ t: z.literal('rematch'), matchId, want: z.boolean() }),
  /** An unranked match against the server's sparring bot at once (lib/bot), refereed like any other. */
  z.object({ t: z.literal('spar'), mode: z.enum(VERSUS_MODE_NAMES), firstTo, bot: botSpecSchema, handling: handlingSchema, nextCount }),
] as const;
export const VERSUS_CLIENT_TYPES: ReadonlySet<string> = new Set(versusClientMessages.map((s) => s.shape.t.value));

const resumeToken = z.string().min(16).max(64);
/**
 * What a watch, a resume or a leave names (protocol 3: one message of each for every kind of
 * stream): a solo game, a versus match, a room's set (its match id) or a room (its code).
 */
const ref = {
  game: z.object({ kind: z.literal('game'), id: gameId }),
  match: z.object({ kind: z.literal('match'), id: matchId }),
  set: z.object({ kind: z.literal('set'), id: matchId }),
  room: z.object({ kind: z.literal('room'), id: roomCodeSchema }),
} as const;
/** Watched: a solo game, a versus match, or a room (its lobby and every set it plays). */
const watchedRef = z.discriminatedUnion('kind', [ref.game, ref.match, ref.room]);
/** A seat taken up again after a dropped socket, with its resume token: a solo game's, a match's or a set's. */
const seatRef = z.discriminatedUnion('kind', [ref.game, ref.match, ref.set]);
/** Left for good: a versus match (the set is lost) or a room (out of its set too). */
const leftRef = z.discriminatedUnion('kind', [ref.match, ref.room]);

const streamMessages = [
  z.object({ t: z.literal('watch'), of: watchedRef }),
  z.object({ t: z.literal('unwatch'), of: watchedRef }),
  z.object({
    t: z.literal('resume'), of: seatRef, token: resumeToken,
    /**
     * A solo game's setup and the browser's tick now, so a server that no longer holds the game (it
     * restarted) can take it up from its ticket and the browser's whole input log.
     */
    setup: z.object({ handling: handlingSchema, nextCount, tick }).optional(),
  }).refine((m) => m.setup === undefined || m.of.kind === 'game', { path: ['setup'], message: "only a solo game's resume declares a setup" }),
  z.object({ t: z.literal('leave'), of: leftRef }),
] as const;

export const clientMessageSchema = z.discriminatedUnion('t', [
  ...versusClientMessages,
  ...roomClientMessages,
  ...teamClientMessages,
  z.object({
    t: z.literal('hello'),
    v: z.number().int(),
  }),
  z.object({
    t: z.literal('start'), mode: z.enum(RANKED_MODE_NAMES as [Mode, ...Mode[]]), handling: handlingSchema, nextCount: z.number().int().min(NEXT_COUNT_MIN).max(NEXT_COUNT_MAX),
    /** The page counts down START_COUNTDOWN_MS before the first tick (lib/live/pace.ts): the server's clock starts as late. */
    countdown: z.boolean().optional(),
  }),
  inputsSchema,
  z.object({ t: z.literal('pause'), gameId, tick }),
  z.object({ t: z.literal('unpause'), gameId, tick }),
  ...streamMessages,
  z.object({ t: z.literal('ping'), n: z.number().int().min(0).max(2 ** 31) }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
/**
 * What the server's door (lib/server/live/messages.ts) makes of a `watch`, `unwatch`, `resume` or
 * `leave` naming a match: the versus lobby's own commands, relayed as they are to the instance
 * holding the match (cluster/wires.ts). Never on the wire to or from a browser; rooms have theirs (rooms.ts).
 */
export type VersusSeatCommand =
  | { t: 'vwatch'; matchId: string }
  | { t: 'vunwatch'; matchId: string }
  | { t: 'vresume'; matchId: string; token: string }
  | { t: 'vleave'; matchId: string };
/** Versus messages as the lobby takes them: the browser's, and the door's commands for a match named by `of`. */
export type VersusClientMessage = Extract<ClientMessage, { t: (typeof versusClientMessages)[number]['shape']['t']['value'] }> | VersusSeatCommand;
/** Room messages as the room lobby takes them: the browser's, and the door's commands for a room or set named by `of`. */
export type RoomClientMessage = Extract<ClientMessage, { t: (typeof roomClientMessages)[number]['shape']['t']['value'] }> | RoomSeatCommand;
export type TeamClientMessage = Extract<ClientMessage, { t: (typeof teamClientMessages)[number]['shape']['t']['value'] }>;
/** What the versus lobby and the rooms handle: their own messages, and their seats' batches (routed by stream: lib/server/live/streams.ts). */
export type VersusMessage = VersusClientMessage | InputsMessage;
export type RoomMessage = RoomClientMessage | InputsMessage;

/**
 * Every refusal the live channel can give. `fatal` ones end the game (it continues unranked, or is dropped).
 * None for too many sockets (refused with HTTP 429 before there is a socket to send it on) or for
 * a game behind the clock (it goes on unranked: `status`, too_slow).
 */
export const LIVE_ERROR_CODES = [
  'bad_message', 'too_large', 'unsupported_version', 'rate_limited', 'too_many_games',
  'out_of_order', 'unknown_game', 'not_your_game', 'game_over', 'bad_inputs', 'ahead_of_clock',
  'desync', 'resume_failed', 'server_error', 'not_live',
  // a resume that declares another handling or preview than the game was started with
  'setup_mismatch',
  // a banned player may watch, not play (start, queue, rooms, resume)
  'banned',
  // versus
  'sign_in_required', 'unknown_room', 'room_full', 'not_room_host', 'unknown_match', 'not_your_match', 'already_playing',
  // ranked quick match refused: an account too new with too few finished solo games (lib/server/versus/pairing.ts)
  'not_eligible',
  // to the socket whose seat a resume from another (a second tab) took: its page stops playing it (seat-taken.ts)
  'seat_taken',
] as const;
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[number];

/**
 * Why a live game left the boards; shown on screen and on the stored game. `paused`: a pause in a
 * mode that allows none; `pause_budget`: more pauses, or longer ones, than its mode allows
 * (lib/live/pauses.ts).
 */
export const unrankedReasonSchema = z.enum(['paused', 'pause_budget', 'too_slow', 'disconnected']);
export type UnrankedReason = z.infer<typeof unrankedReasonSchema>;

/** Every way a game ends: the engine's END_NAMES, so a reason added there is one here. */
const endReasonSchema = z.enum(END_NAMES.filter((n): n is EndReason => n !== null) as [EndReason, ...EndReason[]]);
const anyGameId = z.string().min(1).max(64);
/** An unranked reason a newer server added reads as none here: the page still says the game is unranked. */
const laterReason = unrankedReasonSchema.optional().catch(undefined);
const mode = z.enum(MODE_NAMES);
/** A whole game's inputs, as a catch-up carries them. */
const gameEvents = wireEventsSchema(MAX_TICK);

/** What `resumed` gives back after a reconnect's resume of a solo game: enough to carry on where the browser was. */
const resumedGameSchema = z.object({ t: z.literal('resumed'), gameId: anyGameId, lastSeq: countSchema, tick: tickSchema, from: countSchema, pieces: piecesSchema, holes: holeColumns.optional() });

/**
 * Every message from the server, solo and versus, by its type `t`: the server builds them to these
 * types, and the browser parses each one it receives (lib/client/live/socket.ts) before any
 * handler sees it.
 */
export const serverMessageSchema = z.discriminatedUnion('t', [
  ...versusServerMessages,
  ...roomServerMessages,
  ...teamServerMessages,
  z.object({ t: z.literal('welcome'), v: z.number().int(), player: livePlayerSchema }),
  resumedGameSchema,
  z.object({
    t: z.literal('started'),
    gameId: anyGameId,
    mode,
    rulesVersion: z.number().int(),
    handling: handlingSchema,
    nextCount: countSchema,
    /** The current piece, the preview and one spare: sequence indexes 0 … nextCount + 1. */
    pieces: piecesSchema,
    /** Dig: the hole columns of the starting field's rows, top first, and HOLES_AHEAD more. */
    holes: holeColumns.optional(),
    resumeToken: z.string(),
    /** Reconnects within this many ms take the game up again (`resume` of the game). */
    resumeWindowMs: countSchema,
  }),
  /** Pieces for a stream (`game`: of a set); `holes` (Dig): hole columns dealt now, a deal may then carry no piece. */
  z.object({ t: z.literal('deal'), stream: anyGameId, game: countSchema.optional(), from: countSchema, pieces: piecesSchema, holes: holeDeal.optional() }),
  z.object({ t: z.literal('ack'), stream: anyGameId, game: countSchema.optional(), seq: countSchema, tick: tickSchema }),
  z.object({
    t: z.literal('status'), gameId: anyGameId, ranked: z.boolean(), reason: laterReason, pauses: countSchema, pausesLeft: countSchema, spectators: countSchema,
  }),
  z.object({
    t: z.literal('over'),
    gameId: anyGameId,
    /** Revealed only now: the browser builds the seeded replay (DealtGame.reveal) and POSTs it. */
    seed: z.string(),
    /**
     * The host's count of the game. Absent when another process answers a resume after the end
     * was recorded (lib/server/live/solo/adopt.ts endedGameOver): it has the ticket, not the game.
     */
    result: liveStatsSchema.extend({ finished: z.boolean(), toppedOut: z.boolean(), reason: endReasonSchema.nullable().catch(null), hash: z.string() }).optional(),
    ranked: z.boolean(),
    reason: laterReason,
  }),
  z.object({
    t: z.literal('watching'),
    gameId: anyGameId,
    player: livePlayerSchema,
    mode,
    handling: handlingSchema,
    nextCount: countSchema,
    /**
     * The game as it was a moment ago (lib/engine/state.ts: restoreDealtGame), so a catch-up
     * costs the same however long the game: `pieces` are those dealt since (sequence indexes
     * from state.taken + state.next.length) and `events` the inputs since its tick, up to `tick`.
     * Without it (older servers): every piece and input from tick 0. The engine checks it when
     * it restores it.
     */
    state: z.custom<GameState>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected a game state' }).optional(),
    pieces: piecesSchema,
    /** Dig: hole columns dealt since the state (indexes from its rows risen + state.holes.length). */
    holes: holeDeal.optional(),
    events: gameEvents,
    tick: tickSchema,
    stats: liveStatsSchema,
    spectators: countSchema,
    paused: z.boolean(),
  }),
  z.object({
    t: z.literal('frame'), gameId: anyGameId, from: countSchema, pieces: piecesSchema, holes: holeDeal.optional(), events: gameEvents, tick: tickSchema, stats: liveStatsSchema, paused: z.boolean(),
  }),
  /** The watched game ended; `replayId` is set once it is stored (then /replays/{id} plays it). */
  z.object({ t: z.literal('ended'), gameId: anyGameId, stats: liveStatsSchema, replayId: z.string().optional() }),
  z.object({ t: z.literal('error'), code: z.enum(LIVE_ERROR_CODES).catch('server_error'), message: z.string(), gameId: z.string().optional(), seq: z.number().int().optional() }),
  z.object({ t: z.literal('pong'), n: z.number().int() }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/**
 * One message from the server, parsed: the message, or why it is not one. An older or newer
 * server's message the browser cannot read is refused here, not half-handled.
 */
export function parseServerMessage(value: unknown): { ok: true; message: ServerMessage } | { ok: false; message: string } {
  const parsed = serverMessageSchema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, message: issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid message' };
}

/** GET /api/live: the games being played now, most watched first. */
export type LiveGameSummary = {
  gameId: string;
  player: LivePlayer;
  mode: Mode;
  stats: LiveStats;
  spectators: number;
  startedAt: string;
};

export const toWireEvent = (e: { tick: number; key: Key; down: boolean }): WireEvent => [e.tick, keyId(e.key), e.down ? 1 : 0];
export const fromWireEvent = (w: WireEvent): { tick: number; key: Key; down: boolean } => ({ tick: w[0], key: KEYS[w[1]]!, down: w[2] === 1 });
export const isPiece = (p: unknown): p is PieceType => PIECES.includes(p as PieceType);

/** Parses one text frame: the message, or the typed error to send back. */
export function parseClientMessage(text: string): { ok: true; message: ClientMessage } | { ok: false; code: LiveErrorCode; message: string } {
  if (text.length > MAX_LIVE_MESSAGE_BYTES) return { ok: false, code: 'too_large', message: `messages are at most ${MAX_LIVE_MESSAGE_BYTES} bytes` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: 'bad_message', message: 'not JSON' };
  }
  const parsed = clientMessageSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, code: 'bad_message', message: issue ? `${issue.path.join('.') || 'message'}: ${issue.message}` : 'invalid message' };
  }
  return { ok: true, message: parsed.data };
}
