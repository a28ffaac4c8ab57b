import 'server-only';
import { z } from 'zod';
import { VERSUS_MODE_NAMES } from '@/lib/engine';
import { firstToSchema, roomCodeSchema } from '@/lib/live/protocol';
import { livePlayerSchema } from '@/lib/live/wire';
import type { VersusPeer } from '@/lib/server/live/connection';
import { seatSpecSchema } from '@/lib/server/live/rooms/room-checkpoint';

/**
 * A private versus room of two in its lobby, as the next versus home takes it up after this one
 * goes (decision 0017): its code, its set and its maker, whose seat is kept for its page
 * `ROOM_LIMITS.lobbyHoldMs` from the take-up (how long it was away before is not written). Its
 * handling and preview are not kept: its page's `room_join` brings them. The guest's seat is not
 * kept: a guest's drop frees it here too, and its page's `room_join` sits it there again while free.
 */
export const versusRoomCheckpointSchema = z.object({
  code: roomCodeSchema,
  mode: z.enum(VERSUS_MODE_NAMES),
  firstTo: firstToSchema,
  maker: z.object({ owner: seatSpecSchema.shape.owner, player: livePlayerSchema, address: z.string().min(1).max(256) }),
});
/** The most rooms of two a home takes up: far above what its sockets hold (one room each), a bound on a hash it did not write. */
export const MAX_ROOMS_TAKEN_UP = 20_000;
export type VersusRoomCheckpoint = z.infer<typeof versusRoomCheckpointSchema>;
/** A room of two as the home writes it: `rev` changes with the room, so only a changed one is written again. */
export type VersusRoomEntry = { code: string; rev: number; read: () => VersusRoomCheckpoint };

/**
 * Its maker's seat in a room taken up, until its page dials again (PairRooms, `room_join`): no socket, so it is
 * sent nothing, and closed, so no match or room is ever started with it.
 */
export function keptMaker(maker: VersusRoomCheckpoint['maker']): VersusPeer {
  return {
    owner: maker.owner, player: maker.player, address: maker.address, device: null, open: false, match: null, watches: new Map(),
    send: () => {},
    error: () => {},
  };
}
