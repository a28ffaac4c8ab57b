import 'server-only';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { BudgetsById } from '@/lib/server/live/budgets';

/** A match against the sparring bot: its id, its player (sparrer, below) and the address it was asked for from. */
export type SparEntry = { matchId: string; who: string; address: string };
export type SparRefusal = { code: 'too_many_games' | 'rate_limited' | 'server_error'; message: string };

/** Who a sparring player is, whatever their sockets: their account, else their guest id, else their address. */
export const sparrer = (o: { owner: { userId: string | null; guestId: string | null }; address: string }): string =>
  o.owner.userId ? `user:${o.owner.userId}` : o.owner.guestId ? `guest:${o.owner.guestId}` : `address:${o.address}`;

const { sparringMatchesPerPlayer: PER_PLAYER, sparringMatchesPerAddress: PER_ADDRESS, sparringStartsPerHour: STARTS } = LIVE_LIMITS;
const HOUR_MS = 3_600_000;

/** The refusal for each budget a start can meet, in the order they are read (redis-sparring.ts's script answers its number). */
export const SPAR_REFUSALS: readonly SparRefusal[] = [
  { code: 'too_many_games', message: 'You are already playing the sparring bot in another tab; finish that match first.' },
  { code: 'too_many_games', message: `At most ${PER_ADDRESS} matches against the bot at once from one network.` },
  { code: 'rate_limited', message: `At most ${STARTS.player} matches against the bot an hour; try again later.` },
  { code: 'rate_limited', message: `At most ${STARTS.address} matches against the bot an hour from one network; try again later.` },
];

/**
 * The sparring budgets of one player and one address (LIVE_LIMITS.sparring*): matches held at
 * once and starts an hour. One instance counts them in memory; several count them in Redis
 * (redis-sparring.ts), so a player with tabs on two instances has one budget, not one per instance.
 * Every budget is read before any is spent: a start one refuses costs the others nothing.
 */
export interface SparringLedger {
  /** Counts a new match if every budget allows it; otherwise what refused it. At once in memory (a match starts in the same turn), a promise on Redis. */
  start(e: SparEntry): SparRefusal | null | Promise<SparRefusal | null>;
  /** A match taken up here (a handover, a crash elsewhere): counted from now, never refused nor charged a start. */
  hold(e: SparEntry): void;
  /** The match is over: no longer held. */
  end(matchId: string): void;
  /** The match plays on elsewhere: this instance stops holding it, and the one taking it up holds it on. */
  handedOver(matchId: string): void;
  close(): void;
}

/** One instance: everything in memory, decided at once. */
export class LocalSparringLedger implements SparringLedger {
  private readonly held = new Map<string, SparEntry>();
  private readonly starts = { player: new BudgetsById(STARTS.player, HOUR_MS), address: new BudgetsById(STARTS.address, HOUR_MS) };

  constructor(private readonly now: () => number) {}

  start(e: SparEntry): SparRefusal | null {
    const held = [...this.held.values()];
    const now = this.now();
    const refused = [
      held.filter((h) => h.who === e.who).length >= PER_PLAYER,
      held.filter((h) => h.address === e.address).length >= PER_ADDRESS,
      !this.starts.player.left(e.who, now),
      !this.starts.address.left(e.address, now),
    ].indexOf(true);
    if (refused >= 0) return SPAR_REFUSALS[refused]!;
    this.starts.player.take(e.who, now);
    this.starts.address.take(e.address, now);
    this.held.set(e.matchId, e);
    return null;
  }

  hold(e: SparEntry): void {
    this.held.set(e.matchId, e);
  }

  end(matchId: string): void {
    this.held.delete(matchId);
  }

  handedOver(matchId: string): void {
    this.held.delete(matchId);
  }

  close(): void {}
}
