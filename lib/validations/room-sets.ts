import { z } from 'zod';
import { MAX_REPLAY_ENCODED_LENGTH, MAX_REPLAY_TICKS, MAX_SEATS, ROOM_RULE_LIMITS, VERSUS_MODE_NAMES, type RoomEndReason } from '@/lib/engine';
import { botSpecSchema } from '@/lib/bot/spec';
import { roomRulesSchema, roomSeatsSchema } from '@/lib/validations/rooms';
import { matchIdSchema } from '@/lib/validations/versus';

/** The most games a stored set can hold: verification refuses more (room-verify.ts), a draw replays a game. */
export const MAX_SET_GAMES = ROOM_RULE_LIMITS.firstTo[1] * MAX_SEATS + 8;
export const ROOM_END_REASONS = ['lastStanding', 'goal', 'time'] as const satisfies readonly RoomEndReason[];

const seatNo = z.number().int().min(0).max(MAX_SEATS - 1);

/**
 * One seat of a stored set as anyone may see it: an account by its name, a guest by its public
 * tag (never its id), a bot by its pace and style, or a deleted account (the seat's row went with
 * it; its replays, which name nobody, stay). `rating`: a ranked 2v2 seat's rating before and after the set
 * (null in an unranked set).
 */
export const roomSetSeatSchema = z.strictObject({
  seat: seatNo,
  team: seatNo,
  player: z.strictObject({ username: z.string().min(1).max(40) }).nullable(),
  guestTag: z.string().regex(/^[0-9A-F]{4}$/).nullable(),
  bot: botSpecSchema.nullable(),
  deleted: z.boolean(),
  won: z.boolean(),
  rating: z.strictObject({ before: z.number(), after: z.number() }).nullable(),
});
export type RoomSetSeat = z.infer<typeof roomSetSeatSchema>;

export const roomSetGameSchema = z.strictObject({
  index: z.number().int().min(0).max(MAX_SET_GAMES - 1),
  /** The winning team (a seat's own number in a free-for-all); null: a draw, replayed. */
  winnerTeam: seatNo.nullable(),
  reason: z.enum(ROOM_END_REASONS),
  endTick: z.number().int().min(0).max(MAX_REPLAY_TICKS),
  /** Every seat's replay (encodeReplay text), in seat order. */
  replays: z.array(z.string().min(1).max(MAX_REPLAY_ENCODED_LENGTH)).min(2).max(MAX_SEATS),
  /** Who left, and before which tick: the host's word, bounded by verification. */
  leaves: z.array(z.strictObject({ seat: seatNo, tick: z.number().int().min(0).max(MAX_REPLAY_TICKS) })).max(MAX_SEATS),
});
export type RoomSetGame = z.infer<typeof roomSetGameSchema>;

/**
 * GET /api/versus/rooms/sets/{id} and the viewer page: one schema, parsed by the route before it
 * answers and by the page before it draws. Every array and string is bounded by what verification
 * lets a stored set hold; the rules are checked against the seat count as the room's own are.
 */
export const roomSetSchema = z
  .strictObject({
    id: matchIdSchema,
    mode: z.enum(VERSUS_MODE_NAMES),
    rulesVersion: z.number().int().min(1),
    rules: z.unknown(),
    seats: roomSeatsSchema,
    winnerTeam: seatNo,
    ranked: z.boolean(),
    playedAt: z.iso.datetime(),
    players: z.array(roomSetSeatSchema).min(2).max(MAX_SEATS),
    games: z.array(roomSetGameSchema).min(1).max(MAX_SET_GAMES),
  })
  .transform((set, ctx) => {
    const rules = roomRulesSchema(set.seats).safeParse(set.rules);
    if (!rules.success) {
      ctx.addIssue({ code: 'custom', path: ['rules'], message: rules.error.issues[0]?.message ?? 'bad rules' });
      return z.NEVER;
    }
    if (set.players.length !== set.seats || set.players.some((p, i) => p.seat !== i)) ctx.addIssue({ code: 'custom', path: ['players'], message: 'one player per seat, in seat order' });
    if (set.games.some((g) => g.replays.length !== set.seats)) ctx.addIssue({ code: 'custom', path: ['games'], message: 'one replay per seat in every game' });
    return { ...set, rules: rules.data };
  });
export type RoomSet = z.output<typeof roomSetSchema>;
