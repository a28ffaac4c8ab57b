import 'server-only';
import { z } from 'zod';
import { VERSUS_MODE_NAMES } from '@/lib/engine';
import { botSpecSchema } from '@/lib/bot/spec';
import { serverMessageSchema, type ServerMessage } from '@/lib/live/protocol';
import { seatSchema } from '@/lib/live/versus';
import { countSchema, handlingSchema, intTuples, livePlayerSchema, MAX_TICK, wireEventsSchema } from '@/lib/live/wire';

/**
 * A match in play, as data another instance can take it up from (docs/decisions/0017). The referee
 * is deterministic, so a game is its inputs plus the order the host fed them: `feeds` is that order
 * ([seat, the tick the batch played to], one per batch). Garbage joins the receiver's game at the
 * tick it stands at when the sender's lock is played, which depends on when each batch arrived: the
 * order is recorded, never recomputed, and the joins it gave are recorded beside it and checked on
 * restore, so a checkpoint that would replay into another game is refused, not played.
 */
const MAX_EVENTS = 200_000;
const player = z.object({
  owner: z.object({ userId: z.string().nullable(), guestId: z.string().nullable() }),
  player: livePlayerSchema,
  handling: handlingSchema,
  nextCount: countSchema,
  bot: botSpecSchema.optional(),
});
/** Garbage joined to a seat: [id, tick, size, column]. */
const joinsSchema = intTuples<[number, number, number, number]>([[0, 1e6], [0, MAX_TICK], [1, 100], [-1, 100]], 100_000);
const gameSchema = z.object({
  feeds: intTuples<[0 | 1, number]>([[0, 1], [0, MAX_TICK]], 1_000_000),
  events: z.tuple([wireEventsSchema(MAX_EVENTS), wireEventsSchema(MAX_EVENTS)]),
  joins: z.tuple([joinsSchema, joinsSchema]),
  /** A seat that lost this game by the host's decision (its window ran out, it lagged, its replay grew too long). */
  forfeit: seatSchema.nullable(),
  dealt: z.tuple([countSchema, countSchema]),
});
const seatState = z.object({
  token: z.string().min(1).max(100),
  lastSeq: countSchema,
  excusedMs: z.number().min(0),
  awayInGameMs: z.number().min(0),
  awayInMatchMs: z.number().min(0),
  /** How long the seat had been away when the checkpoint was written; null while seated. */
  awayForMs: z.number().min(0).nullable(),
  startSent: z.number().int().min(-1),
});

/**
 * A match the versus home placed on the instance hosting it (placements.ts): which home, its
 * request's id and its room. Whoever takes the match up tells that home where it is, and reports its
 * end there, so the pair stays busy at the home until then and gets its rematch offer or room after.
 */
const placedSchema = z.object({ home: z.string().min(1).max(100), id: z.string().min(1).max(64), room: z.string().max(16).nullable() });
export type Placed = z.infer<typeof placedSchema>;

export const matchCheckpointSchema = z.object({
  v: z.literal(1),
  matchId: z.string().min(1).max(64),
  seed: z.string().min(1).max(64),
  mode: z.enum(VERSUS_MODE_NAMES),
  firstTo: z.number().int().min(1).max(7),
  ranked: z.boolean(),
  rulesVersion: z.number().int(),
  seats: z.tuple([player, player]),
  /** Every game started so far, the one in play (or just decided) last. */
  games: z.array(gameSchema).min(1).max(20),
  phase: z.enum(['countdown', 'playing', 'between', 'over']),
  /** The seat that left the set (`over` only). */
  left: seatSchema.nullable(),
  /** The current game's clock when written: milliseconds since its tick 0 (negative in the countdown). */
  elapsedMs: z.number(),
  /** Between games: how long until the next one starts. */
  nextInMs: z.number().min(0),
  state: z.tuple([seatState, seatState]),
  lastGame: serverMessageSchema.nullable(),
  /** When it was written (Date.now()): how stale an adopter finds it. */
  writtenAt: z.number(),
  placed: placedSchema.optional(),
});
export type MatchCheckpoint = z.infer<typeof matchCheckpointSchema>;
export type CheckpointGame = z.infer<typeof gameSchema>;
export type VgameMessage = Extract<ServerMessage, { t: 'vgame' }>;

/** Where a host writes its checkpoints (Redis with several instances; nothing with one). */
export type MatchCheckpoints = {
  save(checkpoint: MatchCheckpoint): void;
  /** The match was stored (or refused): nothing is left to take up. */
  drop(matchId: string): void;
  /**
   * This host stops writing the match (closed, lost, handed over) or starts writing it afresh (taken
   * up): what it remembers having written is forgotten, so a later write never appends after
   * another instance's.
   */
  forget(matchId: string): void;
  /** A decided match no instance should take up to store again (its store fails in a way a retry would repeat). */
  unlist(matchId: string): void;
};

/** How often a match in play is written at most (and at each game's end). */
export const CHECKPOINT_EVERY_MS = 1_000;

/** A checkpoint that does not replay into the game it describes: it is not taken up. */
export class MatchRestoreError extends Error {}

/** Parses a checkpoint as stored: the reason for anything that is not one. */
export function parseCheckpoint(text: string): { ok: true; checkpoint: MatchCheckpoint } | { ok: false; message: string } {
  return parseStored(matchCheckpointSchema, text);
}

/** Stored JSON read back through its schema (a match's checkpoint, a room set's): the reason for anything it is not. */
export function parseStored<T>(schema: z.ZodType<T>, text: string): { ok: true; checkpoint: T } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not JSON' };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, checkpoint: parsed.data } : { ok: false, message: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
}
