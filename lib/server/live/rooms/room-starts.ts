import 'server-only';
import { BudgetsById } from '@/lib/server/live/budgets';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import type { RoomPeer } from '@/lib/server/live/rooms/room-peer';

/**
 * Room sets started per hour, per player and per address (ROOM_LIMITS.startsPerHour): a custom
 * room's host pays for its start, and each of a ranked 2v2 set's four players pays for theirs,
 * so a queue cannot start what a room could not.
 */
export class RoomStarts {
  private readonly player = new BudgetsById(ROOM_LIMITS.startsPerHour.player, 3_600_000);
  private readonly address = new BudgetsById(ROOM_LIMITS.startsPerHour.address, 3_600_000);

  /** The first of the people with no start left now, told why; null when all have one. Spends nothing. */
  refused(peers: readonly RoomPeer[], now: number): RoomPeer | null {
    const per = ROOM_LIMITS.startsPerHour;
    for (const p of peers) {
      if (!this.player.left(whoOf(p), now)) return p.error('rate_limited', `At most ${per.player} room sets started an hour; try again later.`), p;
      if (!this.address.left(p.address, now)) return p.error('rate_limited', `At most ${per.address} room sets started an hour from one network; try again later.`), p;
    }
    return null;
  }

  /** Spends a start of each of the people and of each of their addresses once; false (nothing spent) when one has none left. */
  take(peers: readonly RoomPeer[], now: number): boolean {
    // Every budget is read before any is spent: a start one refuses costs the others nothing.
    if (this.refused(peers, now)) return false;
    for (const p of peers) this.player.take(whoOf(p), now);
    for (const address of new Set(peers.map((p) => p.address))) this.address.take(address, now);
    return true;
  }
}

const whoOf = (p: RoomPeer): string => p.owner.userId ?? p.owner.guestId ?? `address:${p.address}`;
