import type { BotSpec } from '@/lib/bot/spec';
import { botName } from '@/lib/ui/bots';

/**
 * A player's name wherever a match or a live game shows one: an account's name, or a guest by the
 * tag the server gives each guest (lib/server/games/guest-tag.ts), so "Guest 2–0 Guest" reads
 * "Guest 4F2A 2–0 Guest 09BC". Plain "Guest" only where no tag came (an older server).
 */
export function playerName(p: { name: string | null; tag?: string | null | undefined; bot?: BotSpec | undefined } | null | undefined): string {
  if (p?.bot) return botName(p.bot);
  if (p?.name) return p.name;
  return p?.tag ? `Guest ${p.tag}` : 'Guest';
}

/** A versus seat's name: its account's, its guest tag's, or the sparring bot's. */
export function seatName(seat: { player: { username: string } | null; guestTag: string | null; bot?: BotSpec | null }): string {
  if (seat.bot) return botName(seat.bot);
  return playerName({ name: seat.player?.username ?? null, tag: seat.guestTag });
}

/** A room seat's name: as a versus seat's, or a deleted account's. */
export function roomSeatName(seat: { player: { username: string } | null; guestTag: string | null; bot: BotSpec | null; deleted: boolean }): string {
  return seat.deleted ? 'Deleted player' : seatName(seat);
}
