import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Owner } from '@/lib/server/games/owner';
import type { RedisBus } from '@/lib/server/live/cluster/redis-bus';
import type { AfterRequest, HostRequest, LinkRef, PeerRef, VersusWire } from '@/lib/server/live/cluster/wires';
import type { VersusPeer } from '@/lib/server/live/connection';
import type { MatchCheckpoint, Placed } from '@/lib/server/live/match/match-checkpoint';
import type { AfterMatch, Placement, VersusLobby } from '@/lib/server/live/match/versus-lobby';

/** What the placements need of the relay: its sockets here, its peers from elsewhere, and the home. */
export type RelayParts = {
  instance: string;
  bus: RedisBus;
  lobby: VersusLobby;
  /** The versus home as Redis says now. */
  home(): Promise<string | null>;
  /** A socket of this instance whose versus messages were relayed to `to` (never one that was not). */
  local(peer: string, to: string): VersusPeer | null;
  /** A player on another instance, as this one sees it (made if new). */
  remote(ref: PeerRef, who: HostRequest['seats'][0]['who']): VersusPeer;
  /** Whether a match can still be taken up somewhere (its checkpoint is there: in play, or its host gone). */
  inPlay(matchId: string): Promise<boolean>;
  /** A player known here by its instance's name for it, or null (gone, or never spoke here). */
  find(ref: PeerRef): VersusPeer | null;
  /** Tells a player, wherever its socket is, that its match did not start. */
  notStarted(ref: PeerRef, message: string): void;
  /** How other instances name this player (its instance and socket id). */
  refOf(p: VersusPeer): PeerRef | null;
};

const NOT_STARTED = 'Your match could not start: the server of one of you went away. Queue again.';

/** A match the home placed, until it reports back: the pair, the instance hosting it and since when, and its id once that instance says it hosts it. */
type Pending = { pair: [VersusPeer, VersusPeer]; at: string; since: number; matchId?: string; checking?: boolean };

/**
 * No versus home for matches (docs/decisions/0018): the home pairs (queue, room, rematch) and asks
 * the instance of seat 0's socket to host the match on the bus; that instance takes its lease and
 * starts it, and tells the home when it closes, so the pair gets its rematch offer or room there.
 * A request is only heard from the bus (a client's messages are parsed as client messages, which
 * have no such type), only from the instance that is the home, and only for sockets here that
 * queued there. The seed is drawn by the host; the home sends none.
 */
export class Placements {
  /** On the home: the matches it placed, until they report back, with the instance asked and when. */
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly r: RelayParts) {}

  /** Whether the home waits to hear from any match it placed. */
  get placing(): boolean {
    return this.pending.size > 0;
  }

  /** On the home: true if the pair's match goes to another instance (seat 0's), false to host it here. */
  place(p: Placement): boolean {
    const refs = p.conns.map((c) => this.r.refOf(c));
    const [at, other] = refs;
    if (!at || !other || at.instance === this.r.instance) return false;
    const seat = (s: 0 | 1) => ({ ...refs[s]!, who: whoOf(p.conns[s]) });
    const req: HostRequest = { id: randomBytes(8).toString('hex'), mode: p.mode, firstTo: p.firstTo, ranked: p.ranked, room: p.room, seats: [seat(0), seat(1)], setup: p.setup };
    this.pending.set(req.id, { pair: p.conns, at: at.instance, since: Date.now() });
    void this.r.bus.tell(at.instance, { k: 'vhost', from: this.r.instance, req }).then((heard) => {
      if (heard !== 0 && heard !== null) return;
      // That instance is gone (and its player with it): the other is told, and is free to queue again.
      this.pending.delete(req.id);
      this.r.lobby.settlePlaced(p.conns, null, [null, null]);
      for (const c of p.conns) if (c.open) c.error('server_error', NOT_STARTED);
    });
    return true;
  }

  /** On seat 0's instance: hosts the match the home asked for, or refuses (the players hear why). */
  async host(w: Extract<VersusWire, { k: 'vhost' }>): Promise<void> {
    const { req } = w;
    const refuse = (why: string) => {
      console.error(`[live] a request to host a match from ${w.from} was refused: ${why}`);
      for (const ref of req.seats) this.r.notStarted(ref, NOT_STARTED);
      void this.r.bus.tell(w.from, { k: 'vafter', from: this.r.instance, req, matchId: null, links: [null, null] });
    };
    // Seat 0 is a socket here that queued at the sender, and the sender is the home: nothing else makes this instance host.
    if (req.seats[0].instance !== this.r.instance) return refuse('seat 0 is not on this instance');
    if (req.seats[0].instance === req.seats[1].instance && req.seats[0].peer === req.seats[1].peer) return refuse('one socket in both seats');
    if ((await this.r.home()) !== w.from) return refuse('it does not come from the versus home');
    // A seat on another instance gets its peer here only once every check passed: a refused
    // request must leave nothing behind (that instance never hears of it, so never closes it).
    const here = req.seats.map((ref) => (ref.instance === this.r.instance ? this.r.local(ref.peer, w.from) : this.r.find(ref)));
    if (req.seats.some((ref, s) => ref.instance === this.r.instance && !here[s])) return refuse('a seat here never queued at the home');
    for (const [s, c] of here.entries()) if (c && !sameOwner(c.owner, req.seats[s]!.who.owner)) return refuse('a seat is not its socket’s player');
    if (here.some((c) => c && (!c.open || (c.match && !c.match.host.ended)))) return refuse('a player left, or is in a match here');
    const [a, b] = req.seats.map((ref, s) => here[s] ?? this.r.remote(ref, ref.who));
    if (!a || !b) return refuse('a seat here never queued at the home');
    const placed = { home: w.from, id: req.id, room: req.room };
    const host = this.r.lobby.hostPlaced({ mode: req.mode, firstTo: req.firstTo, ranked: req.ranked, room: req.room, conns: [a, b], setup: req.setup }, this.report(w.from, req), placed);
    void this.r.bus.tell(w.from, { k: 'vhosting', from: this.r.instance, id: req.id, matchId: host.matchId });
  }

  /** On the instance taking a placed match up (versus-relay.ts adopt): its end is reported to its home from here. */
  reportFrom(cp: MatchCheckpoint, placed: Placed): AfterMatch {
    const setup = cp.seats.map((s) => ({ handling: s.handling, nextCount: s.nextCount })) as AfterRequest['setup'];
    return this.report(placed.home, { id: placed.id, mode: cp.mode, firstTo: cp.firstTo, ranked: cp.ranked, room: placed.room, setup });
  }

  /** Once it is hosted here: the home hears where it is now, so it does not free the pair when the old host's instance goes. */
  takenUp(placed: Placed): void {
    void this.r.bus.tell(placed.home, { k: 'vtaken', from: this.r.instance, id: placed.id });
  }

  /**
   * Tells the home a match it placed ended here, with who sits in its seats now: after a take-up
   * a seat's socket is one the home never saw, and the home makes it a peer to offer the rematch to.
   */
  private report(home: string, req: AfterRequest): AfterMatch {
    return (matchId, links) => {
      const named = links.map((c) => {
        const ref = c ? this.r.refOf(c) : null;
        return ref && c ? { ...ref, who: whoOf(c) } : null;
      }) as [LinkRef | null, LinkRef | null];
      void this.r.bus.tell(home, { k: 'vafter', from: this.r.instance, req, matchId, links: named });
    };
  }

  /** On the home: the match it placed is hosted, under this id. */
  hosting(w: Extract<VersusWire, { k: 'vhosting' }>): void {
    const pending = this.pending.get(w.id);
    if (pending && pending.at === w.from) this.pending.set(w.id, { ...pending, matchId: w.matchId, checking: false });
  }

  /** On the home: a match it placed was taken up by another instance, which reports its end now. */
  taken(w: Extract<VersusWire, { k: 'vtaken' }>): void {
    const pending = this.pending.get(w.id);
    // A new entry: a sweep still asking about the old one leaves it be.
    if (pending) this.pending.set(w.id, { ...pending, at: w.from, since: Date.now(), checking: false });
  }

  /** On the home: a match it placed closed there (or never started): the pair is free, and gets its offer or room. */
  after(w: Extract<VersusWire, { k: 'vafter' }>): void {
    const seats = this.pending.get(w.req.id)?.pair;
    if (!seats) return; // not placed by this instance (a home since gone), or reported already
    this.pending.delete(w.req.id);
    // A room opens again only for both: a lone new peer would hear nothing, so its close would never reach the home.
    const make = w.req.room === null || w.links.every((ref, s) => ref && (this.r.find(ref) || this.makeable(ref, seats[s]!)));
    const links = w.links.map((ref, s) => (ref ? this.linkOf(ref, seats[s]!, make) : null)) as [VersusPeer | null, VersusPeer | null];
    const { mode, firstTo, ranked, room, setup } = w.req;
    this.r.lobby.settlePlaced(seats, w.matchId === null ? null : { mode, firstTo, ranked, room, setup, matchId: w.matchId }, links);
  }

  /**
   * A seat's socket at its match's end, as the home knows it: made a peer if it is new here (the
   * match was taken up and the player came back through another instance), only for the seat's
   * own player, and never for a socket said to be on the home itself that the home does not know.
   */
  private linkOf(ref: LinkRef, seat: VersusPeer, make: boolean): VersusPeer | null {
    return this.r.find(ref) ?? (make && this.makeable(ref, seat) ? this.r.remote(ref, ref.who) : null);
  }

  private makeable(ref: LinkRef, seat: VersusPeer): ref is LinkRef & { who: NonNullable<LinkRef['who']> } {
    return ref.who !== undefined && ref.instance !== this.r.instance && sameOwner(ref.who.owner, seat.owner);
  }

  /** Forgets what a closed socket was placed in once neither of its pair is here (its match reports back to nobody then): the pair is free here. */
  drop(p: VersusPeer): void {
    for (const [id, { pair }] of this.pending) {
      if (!pair.includes(p) || pair.some((c) => c !== p && c.open)) continue;
      this.pending.delete(id);
      this.r.lobby.settlePlaced(pair, null, [null, null]);
    }
  }

  /**
   * On the home: matches placed on an instance no longer listed will never report back (it died
   * after hearing the request, before or after hosting): their pairs are freed here and told, or
   * the one still connected would wait, busy, for as long as its socket lives. One placed after
   * `listedSince` may be on an instance that has not listed itself yet.
   */
  gone(alive: Set<string>, listedSince: number): void {
    for (const [id, p] of this.pending) {
      if (alive.has(p.at) || p.since > listedSince || p.checking) continue;
      if (p.matchId === undefined) {
        this.free(id, p);
        continue;
      }
      // Hosted once: it may be taken up yet (its checkpoint is there; a crash's lease runs out after
      // the instance leaves the list), and then that instance reports its end. Asked again each sweep.
      p.checking = true;
      void this.r.inPlay(p.matchId).then((playing) => {
        p.checking = false;
        if (!playing && this.pending.get(id) === p) this.free(id, p);
      });
    }
  }

  private free(id: string, p: Pending): void {
    this.pending.delete(id);
    this.r.lobby.settlePlaced(p.pair, null, [null, null]);
    for (const c of p.pair) if (c.open) c.error('server_error', NOT_STARTED);
  }
}

function whoOf(p: VersusPeer): HostRequest['seats'][0]['who'] {
  return { owner: p.owner, player: p.player, address: p.address, device: p.device };
}

function sameOwner(a: Owner, b: Owner): boolean {
  return a.userId === b.userId && a.guestId === b.guestId;
}
