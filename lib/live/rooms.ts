/**
 * Live rooms of 2–16 seats (issue 36; decision 0034), both directions: zod schemas both sides
 * parse (protocol version 3: a seat's batches, resume, leave and watch are protocol.ts's `inputs`,
 * `resume`, `leave` and `watch`). A room is made with its size, rules and bot seats, filled by
 * code, started by its host once every person in it is ready; then a set of games played through
 * the server's referee (lib/engine/referee.ts), every seat's field shown to every seat and watcher.
 */
import { z } from 'zod';
import { BOT_PPS, BOT_STYLES } from '@/lib/bot/spec';
import { COLS, MAX_GARBAGE_SIZE, MAX_SEATS, MIN_SEATS, VERSUS_MODE_NAMES } from '@/lib/engine';
import { countSchema, handlingSchema, intTuples, livePlayerSchema, liveStatsSchema, MAX_TICK, piecesSchema, tickSchema, wireEventsSchema } from '@/lib/live/wire';
import { roomRulesSchema } from '@/lib/validations/rooms';

/** What one socket may ask of rooms: one schema bound, one home (the host re-checks the live ones). */
export const ROOM_WIRE_LIMITS = {
  /** Target changes in one batch (the referee takes at most one a tick). */
  targetsPerBatch: 16,
} as const;

const roomCodeSchema = z.string().regex(/^[A-Z2-9]{6}$/, 'not a room code');
const roomMatchId = z.string().regex(/^[a-z0-9]{8,40}$/, 'not a match id');
const seatNo = z.number().int().min(0).max(MAX_SEATS - 1);
const size = z.number().int().min(MIN_SEATS).max(MAX_SEATS);
/** The last game of a set: first-to-7 of up to 16 seats, with draws replayed, stays well under. */
export const ROOM_LAST_GAME = 7 * MAX_SEATS + 8;
const game = z.number().int().min(0).max(ROOM_LAST_GAME);
const botSeat = z.object({ seat: seatNo, pps: z.number().int().min(BOT_PPS.min).max(BOT_PPS.max), style: z.enum(BOT_STYLES) });
/** [tick, seat]: from `tick` on, this seat's attacks go to `seat` (manual targeting). */
export type WireTarget = [tick: number, seat: number];
/** A room seat's target changes, riding in its batches (protocol.ts `inputs.targets`). */
export const wireTargetsSchema = intTuples<WireTarget>([[0, MAX_TICK], [0, MAX_SEATS - 1]], ROOM_WIRE_LIMITS.targetsPerBatch);

/** Room messages from the browser. */
export const roomClientMessages = [
  z
    .object({ t: z.literal('rcreate'), mode: z.enum(VERSUS_MODE_NAMES), size, rules: z.unknown(), bots: z.array(botSeat).max(MAX_SEATS - 1), handling: handlingSchema })
    // The rules against the room's size (teams), with the engine's own limits and messages.
    .superRefine((m, ctx) => {
      const r = roomRulesSchema(m.size).safeParse(m.rules);
      if (!r.success) ctx.addIssue({ code: 'custom', path: ['rules'], message: r.error.issues[0]!.message });
      const seats = m.bots.map((b) => b.seat);
      if (seats.some((s) => s === 0 || s >= m.size) || new Set(seats).size !== seats.length) ctx.addIssue({ code: 'custom', path: ['bots'], message: 'bot seats are distinct seats 1…size−1 of the room' });
    }),
  z.object({ t: z.literal('rjoin'), code: roomCodeSchema, handling: handlingSchema }),
  /** `terms`: the room's terms the page showed (rroom's): a ready for terms changed since readies for nothing. */
  z.object({ t: z.literal('rready'), code: roomCodeSchema, ready: z.boolean(), terms: z.number().int().min(0).optional() }),
  z.object({ t: z.literal('rstart'), code: roomCodeSchema }),
  // The host's chair, in the lobby (rules and bots) or at any time (kick, hand over).
  /** Empties a seat: a person is told `rclosed` kicked and may not join this room again; a bot goes. */
  z.object({ t: z.literal('rkick'), code: roomCodeSchema, seat: seatNo }),
  /** Hands the host's chair to another person's seat. */
  z.object({ t: z.literal('rhost'), code: roomCodeSchema, seat: seatNo }),
  /** New mode and rules before a set (checked against the room's size by the lobby): everyone's ready resets. */
  z.object({ t: z.literal('rrules'), code: roomCodeSchema, mode: z.enum(VERSUS_MODE_NAMES), rules: z.unknown() }),
  /** A bot on an empty seat (or a new pace or style for one), or null to take it off. */
  z.object({ t: z.literal('rbot'), code: roomCodeSchema, seat: seatNo.min(1), bot: botSeat.omit({ seat: true }).nullable() }),
] as const;
/**
 * What the server's door makes of a `watch`, `unwatch`, `resume` or `leave` (protocol.ts) naming a
 * room or one of its sets: the room lobby's own commands, relayed as they are to the home. Never on
 * the wire to or from a browser.
 */
export type RoomSeatCommand =
  | { t: 'rwatch'; code: string }
  | { t: 'runwatch'; code: string }
  | { t: 'rresume'; matchId: string; token: string }
  | { t: 'rleave'; code: string };
/** Every command, none missing: a relayed one the home did not know as a room's would go to the versus lobby. */
const ROOM_COMMANDS = { rwatch: true, runwatch: true, rresume: true, rleave: true } satisfies Record<RoomSeatCommand['t'], true>;
/** Whose a message is at the home: the room lobby's, the browser's or the door's. */
export const ROOM_CLIENT_TYPES: ReadonlySet<string> = new Set([...roomClientMessages.map((s) => s.shape.t.value), ...Object.keys(ROOM_COMMANDS)]);

const seatView = z.object({ player: livePlayerSchema.nullable(), team: z.number().int().min(0), ready: z.boolean() });
/** [team, games won]. */
const score = intTuples<[team: number, wins: number]>([[0, MAX_SEATS - 1], [0, 7]], MAX_SEATS);
const wireGarbage = intTuples<[tick: number, rows: number, column: number]>([[0, MAX_TICK], [1, MAX_GARBAGE_SIZE], [0, COLS - 1]], MAX_TICK);
const seatFrame = z.object({
  seat: seatNo,
  events: wireEventsSchema(MAX_TICK),
  garbage: wireGarbage,
  tick: tickSchema,
  stats: liveStatsSchema,
  /** Rows waiting in this seat's meter. */
  meter: countSchema,
  /** Whom this seat aims at now (itself before its first attack). */
  aim: seatNo,
  out: z.boolean(),
});
export type RoomSeatFrame = z.infer<typeof seatFrame>;
const rules = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected room rules' });

/** Room messages from the server. */
export const roomServerMessages = [
  /** The room as everyone in it sees it, sent whenever it changes; `you`: the receiver's seat (null: watching). */
  /** `terms`: counts the changes everyone readies again for (rules, bots, who sits); a ready names the terms it agrees to. */
  z.object({ t: z.literal('rroom'), code: roomCodeSchema, mode: z.enum(VERSUS_MODE_NAMES), rules, host: seatNo, seats: z.array(seatView).max(MAX_SEATS), you: seatNo.nullable(), playing: z.boolean(), terms: z.number().int().min(0).optional() }),
  z.object({ t: z.literal('rclosed'), code: roomCodeSchema, reason: z.enum(['empty', 'left', 'over', 'refused', 'kicked']) }),
  /** A seat's set begins: its token for rresume, the mode and every seat's handling (fields are re-simulated with them; a seat sent here from a queue has seen no rroom). */
  z.object({ t: z.literal('rmatch'), matchId: roomMatchId, code: roomCodeSchema, mode: z.enum(VERSUS_MODE_NAMES), seat: seatNo.nullable(), players: z.array(livePlayerSchema).max(MAX_SEATS), handling: z.array(handlingSchema).max(MAX_SEATS), rules, rulesVersion: z.number().int(), resumeToken: z.string().optional() }),
  /** A game starts; `pieces`: the receiver's first pieces (a watcher's: none). */
  z.object({ t: z.literal('rbegin'), matchId: roomMatchId, game, pieces: piecesSchema, startsInMs: z.number(), score }),
  /** Garbage that joined the receiver's queue at `tick` from seat `from`; it rises from tick + the rules' delay. */
  z.object({ t: z.literal('rgarbage'), matchId: roomMatchId, game, from: seatNo, size: z.number().int().min(1).max(MAX_GARBAGE_SIZE), column: z.number().int().min(0).max(COLS - 1), tick: tickSchema }),
  /**
   * Every seat's increment since the last, with the shared pieces newly visible (from index `from`);
   * `all`: every seat's field from its start (a watcher's or a resumed seat's catch-up), in place of what the page holds.
   */
  z.object({ t: z.literal('rframes'), matchId: roomMatchId, game, from: countSchema, pieces: piecesSchema, seats: z.array(seatFrame).max(MAX_SEATS), all: z.literal(true).optional() }),
  /** A seat went out: topped out, left, or fell too far behind. */
  z.object({ t: z.literal('rko'), matchId: roomMatchId, game, seat: seatNo, tick: tickSchema, why: z.enum(['topOut', 'left', 'lag']) }),
  z.object({ t: z.literal('rgame'), matchId: roomMatchId, game, winner: z.number().int().min(0).nullable(), reason: z.enum(['lastStanding', 'goal', 'time']), tick: tickSchema, placements: z.array(seatNo).max(MAX_SEATS), score }),
  z.object({ t: z.literal('rover'), matchId: roomMatchId, winner: z.number().int().min(0), score, stored: z.boolean() }),
  /** After rresume: where the seat's game stands, to rebuild it and resend unacknowledged batches. */
  z.object({ t: z.literal('rresumed'), matchId: roomMatchId, game, lastSeq: countSchema, tick: tickSchema, pieces: piecesSchema, garbage: wireGarbage, playing: z.boolean() }),
] as const;
export type RoomServerMessage = z.infer<(typeof roomServerMessages)[number]>;
const ROOM_SERVER_TYPES: ReadonlySet<string> = new Set(roomServerMessages.map((s) => s.shape.t.value));
/** A room's message: a page that plays no room passes it by before its own switch, which stays exhaustive over the rest. */
export const isRoomServerMessage = <M extends { t: string }>(m: M): m is Extract<M, RoomServerMessage> => ROOM_SERVER_TYPES.has(m.t);
