import 'server-only';
import type { Handling, VersusMode } from '@/lib/engine';
import type { RematchEnd, Seat } from '@/lib/live/versus';
import type { VersusPeer } from '@/lib/server/live/connection';
import type { Timers } from '@/lib/server/live/match/match-host';

/** The rematch offer after a quick match, as data (docs/decisions/0017-versus-live.md). */
export const REMATCH = {
  /** How long the pair has to agree; the button goes after it. */
  windowMs: 30_000,
} as const;

export type SeatSetup = { handling: Handling; nextCount: number };

/** A quick match that is over, and what its pair needs to play it again. */
export type Offer = {
  matchId: string;
  mode: VersusMode;
  ranked: boolean;
  firstTo: number;
  peers: [VersusPeer, VersusPeer];
  setup: [SeatSetup, SeatSetup];
  wants: [boolean, boolean];
  /** When it expires, on the lobby's clock. */
  until: number;
  timer: unknown;
  /** Both want it and the ranked rules are being asked: a second acceptance starts nothing. */
  starting: boolean;
};

/** What answers a `rematch` the offers here do not settle: a match still played, or none. */
/** A refusal says why to each seat: a reason about one player (a ban's) is told to that player only. */
export type Verdict = { ok: true; firstTo: number } | { ok: false; messages: [string, string] };

/**
 * The offers of the quick matches just over, on the instance that runs versus. An offer belongs to
 * the two connections that ended the match (a seat's current one), never to an account: another
 * tab or a stranger is refused. It ends when either goes (socket closed, queued, a room), declines,
 * or the window passes; when both want it, `start` plays the pair again, a ranked pair only as far
 * as `recheck` (the ranked rules, asked again) allows.
 */
export class Rematches {
  private readonly offers = new Map<string, Offer>();
  private readonly byPeer = new Map<VersusPeer, Offer>();

  constructor(
    private readonly o: {
      now: () => number;
      timers: Timers;
      recheck: (offer: Offer) => Promise<Verdict>;
      /** In a match, the queue or a room (a ranked one: also in any other ranked game): such a player cannot start another match. */
      busy: (conn: VersusPeer, ranked: boolean) => boolean;
      start: (offer: Offer, firstTo: number) => void;
    },
  ) {}

  /** A quick match closed: both players still here get the offer; one already gone means none. */
  open(offer: Omit<Offer, 'peers' | 'wants' | 'until' | 'timer' | 'starting'>, links: [VersusPeer | null, VersusPeer | null]): void {
    const [a, b] = links;
    // Gone, or already queued or in a room (a client may move on while the match is being stored).
    if (!a?.open || !b?.open || this.o.busy(a, offer.ranked) || this.o.busy(b, offer.ranked)) {
      for (const c of links) c?.send({ t: 'rematch_over', matchId: offer.matchId, reason: 'left' });
      return;
    }
    const o: Offer = { ...offer, peers: [a, b], wants: [false, false], until: this.o.now() + REMATCH.windowMs, starting: false, timer: null };
    o.timer = this.o.timers.set(() => this.end(o, 'expired'), REMATCH.windowMs);
    for (const c of o.peers) this.leave(c); // an older offer of theirs is moot now
    this.offers.set(o.matchId, o);
    for (const c of o.peers) this.byPeer.set(c, o);
    this.tell(o);
  }

  /** `rematch {matchId, want}` from a connection; false when there is no such offer (the lobby says why). */
  want(conn: VersusPeer, matchId: string, want: boolean): Promise<void> | void | false {
    const offer = this.offers.get(matchId);
    if (!offer) return false;
    const seat = offer.peers.indexOf(conn);
    if (seat < 0) return conn.error('not_your_match', 'Only the two players of this match may ask for a rematch.', { gameId: matchId });
    if (!want) return this.end(offer, 'declined');
    // Idempotent: asking again changes nothing and tells nobody (a flood costs one message).
    if (offer.wants[seat as Seat] || offer.starting) return;
    offer.wants[seat as Seat] = true;
    if (!offer.wants[0] || !offer.wants[1]) return this.tell(offer);
    return this.begin(offer);
  }

  /** The connection went elsewhere (or closed): its offer ends, and the other player hears it left. */
  leave(conn: VersusPeer): void {
    const offer = this.byPeer.get(conn);
    if (offer) this.end(offer, 'left');
  }

  close(): void {
    for (const offer of this.offers.values()) this.o.timers.clear(offer.timer);
    this.offers.clear();
    this.byPeer.clear();
  }

  private async begin(offer: Offer): Promise<void> {
    offer.starting = true;
    const unchecked = 'The ranked rules could not be checked just now; try a new quick match.';
    const verdict = offer.ranked ? await this.o.recheck(offer).catch((): Verdict => ({ ok: false, messages: [unchecked, unchecked] })) : { ok: true as const, firstTo: offer.firstTo };
    if (this.offers.get(offer.matchId) !== offer) return; // one of them went meanwhile: told already
    if (!verdict.ok) return this.end(offer, 'refused', verdict.messages);
    // Checked again after the rules' reads: a ranked 2v2 set may have started meanwhile on another tab.
    if (offer.peers.some((c) => !c.open || this.o.busy(c, offer.ranked))) return this.end(offer, 'left');
    this.forget(offer);
    this.o.start(offer, verdict.firstTo);
  }

  private end(offer: Offer, reason: RematchEnd, messages?: [string, string]): void {
    if (this.offers.get(offer.matchId) !== offer) return;
    this.forget(offer);
    offer.peers.forEach((c, seat) => c.send({ t: 'rematch_over', matchId: offer.matchId, reason, ...(messages ? { message: messages[seat]! } : {}) }));
  }

  private forget(offer: Offer): void {
    this.o.timers.clear(offer.timer);
    this.offers.delete(offer.matchId);
    for (const c of offer.peers) if (this.byPeer.get(c) === offer) this.byPeer.delete(c);
  }

  private tell(offer: Offer): void {
    // The time left, not the whole window: a page counts it down from when it hears it.
    const expiresInMs = Math.max(0, Math.ceil(offer.until - this.o.now()));
    for (const c of offer.peers) c.send({ t: 'rematch_state', matchId: offer.matchId, wants: [...offer.wants], expiresInMs });
  }
}
