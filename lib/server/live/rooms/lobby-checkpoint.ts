import 'server-only';
import { z } from 'zod';
import { MAX_SEATS, VERSUS_MODE_NAMES, type RoomRules } from '@/lib/engine';
import { roomRulesSchema } from '@/lib/validations/rooms';
import { MAX_KICKED, seatSpecSchema } from '@/lib/server/live/rooms/room-checkpoint';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';

/**
 * A room in its lobby (no set in play), as the next versus home takes it up after this one goes
 * (decision 0034): its code, rules, chair, seats and who may not come back. A person's seat is
 * held for its owner for `ROOM_LIMITS.lobbyHoldMs`, so the page that dials again sits back in it.
 */
export const lobbyCheckpointSchema = z
  .object({
    code: z.string().min(1).max(16),
    mode: z.enum(VERSUS_MODE_NAMES),
    rules: z.custom<RoomRules>(() => true),
    host: z.number().int().min(0).max(MAX_SEATS - 1),
    seats: z.array(seatSpecSchema.extend({ ready: z.boolean() }).nullable()).min(2).max(MAX_SEATS),
    kicked: z.array(z.string().min(1).max(80)).max(MAX_KICKED),
    again: z.boolean(),
    /** The terms its people last readied for, and the address that made it (its maker's rooms are bounded): optional, as older homes wrote neither. */
    terms: z.number().int().min(0).optional(),
    madeFrom: z.string().min(1).max(256).optional(),
  })
  .superRefine((room, ctx) => {
    const rules = roomRulesSchema(room.seats.length).safeParse(room.rules);
    if (!rules.success) ctx.addIssue({ code: 'custom', path: ['rules'], message: rules.error.issues.map((i) => i.message).join('; ') });
    const chair = room.seats[room.host];
    if (!chair || chair.bot) ctx.addIssue({ code: 'custom', path: ['host'], message: 'the chair is not a person’s seat' });
  });
export type LobbyCheckpoint = z.infer<typeof lobbyCheckpointSchema>;
/** Every room in its lobby at the home, as one value on Redis. */
export const lobbyCheckpointsSchema = z.array(lobbyCheckpointSchema).max(ROOM_LIMITS.roomsPerInstance);
