import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Handling } from '@/lib/engine';
import type { TeamClientMessage } from '@/lib/live/protocol';
import { TEAM_CLIENT_TYPES } from '@/lib/live/teams';
import { realTimers, type Timers } from '@/lib/server/live/match/match-timing';
import type { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { RoomPeer } from '@/lib/server/live/rooms/room-peer';
import type { RankedEntry } from '@/lib/server/versus/pairing';
import { teamRating, teamUp, type TeamUnit } from '@/lib/server/versus/team-matchmaking';
import { TEAM_SET } from '@/lib/server/versus/team-ratings';
import type { Rating } from '@/lib/server/versus/rating';

/** What the ranked 2v2 queue may take of one instance (decision 0036). */
export const TEAM_LIMITS = {
  /** Parties open at once on this instance. */
  parties: 2_000,
  /** Players waiting at once (each unit is matched against its nearest few, teamUp). */
  queued: 4_000,
  /** How often matchmaking runs while anyone waits (besides on each join), so windows widen. */
  passMs: 1_000,
} as const;

export const isTeamMessage = <M extends { t: string }>(m: M): m is Extract<M, TeamClientMessage> => TEAM_CLIENT_TYPES.has(m.t);
const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

type Member = { peer: RoomPeer; userId: string; handling: Handling; rating?: Rating };
type Party = { code: string; members: Member[] };
/** `by`: the socket that sent the unit's `tqueue` (for a pair, the one member who asked for the set). */
type Unit = TeamUnit & { members: Member[]; by: RoomPeer };

export type TeamQueueOptions = {
  rooms: RoomLobby;
  now?: () => number;
  timers?: Timers;
  /** A player's 2v2 rating now (team-ratings.ts teamRatingOf); tests pass their own. */
  ratingOf?: (userId: string) => Promise<Rating>;
  /** Whether the peer plays elsewhere (a 1v1 match of its own, or of its account's if ranked): the hub knows its connections. */
  busy?: (peer: RoomPeer) => boolean;
  /** Whether a player may queue for ranked and whom they must not meet (pairing.ts, as for 1v1); tests pass their own. */
  rankedEntry?: (who: { userId: string; address: string; device: string | null }) => Promise<RankedEntry>;
};

/**
 * Ranked 2v2 on this instance (decision 0036): parties of two by code, and the queue of solos
 * and pairs that teamUp matches; each match found is a room set started at once through the
 * room lobby (RoomLobby.startRanked), stored ranked. Only accounts the ranked rules admit queue
 * (pairing.ts rankedEntry, as for 1v1), and never meet what those rules keep apart; a socket is in
 * one party and one queue entry at most, never while it sits in a room or plays a match; a player
 * (account) is in the queue once, whatever their tabs, and not at all while it plays a ranked set
 * or a ranked 1v1 match. Rooms live on one instance, so this queue does too: players on two
 * instances never meet (the hole 0035 names).
 */
export class TeamQueue {
  private readonly parties = new Map<string, Party>();
  private readonly partyOf = new Map<RoomPeer, Party>();
  private readonly units = new Map<string, Unit>();
  private readonly unitOf = new Map<RoomPeer, Unit>();
  /** Peers whose queue entry waits on a rating read: one at a time. */
  private readonly reading = new Set<RoomPeer>();
  private readonly now: () => number;
  private readonly timers: Timers;
  private timer: unknown = null;

  constructor(private readonly o: TeamQueueOptions) {
    this.now = o.now ?? (() => performance.now());
    this.timers = o.timers ?? realTimers;
    o.rooms.waitsForTeams = (peer) => this.partyOf.has(peer) || this.unitOf.has(peer) || this.reading.has(peer);
  }

  /** Players waiting now. */
  get waiting(): number {
    return this.unitOf.size;
  }

  handle(peer: RoomPeer, m: TeamClientMessage): Promise<void> | void {
    switch (m.t) {
      case 'tparty': {
        const userId = this.eligible(peer);
        if (!userId) return;
        if (this.parties.size >= TEAM_LIMITS.parties) return peer.error('rate_limited', 'This server holds as many parties as it can; try again later.');
        const party: Party = { code: this.newCode(), members: [{ peer, userId, handling: m.handling }] };
        this.parties.set(party.code, party);
        this.partyOf.set(peer, party);
        return this.tellParty(party);
      }
      case 'tjoin': {
        const userId = this.eligible(peer);
        if (!userId) return;
        const party = this.parties.get(m.code);
        if (!party) return peer.error('unknown_room', 'No party with this code.');
        if (party.members.length >= 2) return peer.error('room_full', 'This party has its two players.');
        if (party.members.some((x) => x.userId === userId)) return peer.error('already_playing', 'You are in this party already.');
        party.members.push({ peer, userId, handling: m.handling });
        this.partyOf.set(peer, party);
        return this.tellParty(party);
      }
      case 'tqueue':
        return this.enqueue(peer, m.handling);
      case 'tleave':
        return this.leave(peer, true);
      default:
        m satisfies never;
    }
  }

  /** The socket closed: out of the queue and its party, the partner told. */
  closed(peer: RoomPeer): void {
    this.leave(peer, false);
  }

  close(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }

  /**
   * Runs matchmaking once: each match found starts its room set now. A match that cannot start
   * (a player gone, busy elsewhere, seated elsewhere, or out of starts) takes the units in its way out of the
   * queue, told so; the others wait on with their own `since`, so their windows stay as wide.
   */
  pass(): void {
    for (const [t0, t1] of teamUp([...this.units.values()], this.now())) {
      const units = [...t0, ...t1] as Unit[];
      const members = units.flatMap((u) => u.members);
      // What the store needs of the queue: each rating as read (a seat deleted meanwhile is rated
      // against at it) and who queued a pair (a no-contest leaver's partner shares its loss only if
      // it asked for the set itself: a stranger with a shared code cannot charge the code's maker).
      const seats = units.flatMap((u) => u.members.map((x) => ({
        owner: x.peer.owner, player: x.peer.player, handling: x.handling, ...(x.rating ? { queued: { rating: x.rating, party: u.members.length === 2 && x.peer === u.by } } : {}),
      })));
      // Busy was checked at tqueue; since then a player may have started a ranked game elsewhere
      // (another tab's set or 1v1 match): one ranked game per account holds at the start too.
      const gone = members.filter((x) => !x.peer.open || this.busy(x.peer)).map((x) => x.peer);
      const r = gone.length > 0 ? { ok: false as const, refused: gone } : this.o.rooms.startRanked({ ...TEAM_SET, seats, peers: members.map((x) => x.peer) });
      const out = r.ok ? units : units.filter((u) => u.members.some((x) => r.refused.includes(x.peer)));
      for (const u of out) for (const x of u.members) this.forget(x.peer);
      if (!r.ok) for (const u of out) for (const x of u.members) if (x.peer.open) x.peer.send({ t: 'tunqueued', reason: 'refused' });
    }
    this.schedule();
  }

  private async enqueue(peer: RoomPeer, handling: Handling): Promise<void> {
    if (this.unitOf.has(peer) || this.reading.has(peer)) return peer.error('already_playing', 'This connection is in the queue already.');
    const userId = this.eligible(peer, true);
    if (!userId) return;
    const party = this.partyOf.get(peer);
    const mine = party?.members.find((x) => x.peer === peer);
    if (mine) mine.handling = handling;
    if (party && party.members.length < 2) return peer.error('not_eligible', 'Your party waits for its second player: share its code, or leave it to queue alone.');
    const members = party ? party.members : [{ peer, userId, handling }];
    if (members.some((x) => this.unitOf.has(x.peer) || this.queuedUser(x.userId))) return peer.error('already_playing', 'You or your partner are in the queue already.');
    if (this.unitOf.size + members.length > TEAM_LIMITS.queued) return peer.error('rate_limited', 'The queue is full on this server; try again in a moment.');
    // A set they could not start is not waited for: each player pays a start (RoomLobby.startRanked).
    const broke = this.o.rooms.startsRefused(members.map((x) => x.peer));
    if (broke && broke !== peer) peer.error('rate_limited', 'Your partner has started as many room sets as an hour allows.');
    if (broke) return;
    for (const x of members) this.reading.add(x.peer);
    let looked: Array<[Rating, RankedEntry]>;
    try {
      looked = await Promise.all(members.map((x) => Promise.all([this.ratingOf(x.userId), this.rankedEntry(x)])));
    } finally {
      for (const x of members) this.reading.delete(x.peer);
    }
    const refused = looked.findIndex(([, e]) => !e.ok);
    if (refused >= 0) {
      const [who, entry] = [members[refused]!.peer, looked[refused]![1] as Extract<RankedEntry, { ok: false }>];
      who.error(entry.code, entry.message);
      if (who !== peer) peer.error(entry.code, 'The ranked rules do not admit your partner now; a private room (unranked) is open to you both.');
      return;
    }
    // While those were read: a member may have gone, left the party, or queued elsewhere.
    const still = members.every((x) => x.peer.open && this.partyOf.get(x.peer) === party && !this.unitOf.has(x.peer) && !this.queuedUser(x.userId) && !this.busy(x.peer));
    if (!still) return peer.error('already_playing', 'Your party changed while you queued; queue again.');
    members.forEach((x, i) => (x.rating = looked[i]![0]));
    const unit: Unit = {
      id: randomBytes(8).toString('hex'), who: members.map((x) => x.userId), rating: teamRating(looked.map(([r]) => r.rating)), since: this.now(), members, by: peer,
      // Ranked: no opponent on a member's address or device, nor one a member must not meet.
      apart: members.flatMap((x) => [`address:${x.peer.address}`, ...(x.peer.device ? [`device:${x.peer.device}`] : [])]),
      avoid: [...new Set(looked.flatMap(([, e]) => (e.ok ? e.avoid : [])))],
    };
    this.units.set(unit.id, unit);
    for (const x of members) this.unitOf.set(x.peer, unit);
    for (const x of members) x.peer.send({ t: 'tqueued', pair: members.length === 2, waiting: this.waiting });
    this.pass();
  }

  /** Whether a peer may make, join or queue: signed in, and not in a room, a match or (with `inParty`) another party. */
  private eligible(peer: RoomPeer, inParty = false): string | null {
    const userId = peer.owner.userId;
    if (!userId) return peer.error('sign_in_required', 'Sign in to play ranked 2v2.'), null;
    if (this.busy(peer)) return peer.error('already_playing', 'This connection is already in a match or a room.'), null;
    if (!inParty && (this.partyOf.has(peer) || this.unitOf.has(peer))) return peer.error('already_playing', 'This connection is in a party or the queue already.'), null;
    return userId;
  }

  /**
   * In a room's seat here (every room's seats looked at: bounded by ROOM_LIMITS), its account in a
   * ranked set here from any tab, or in a match elsewhere: a second tab cannot queue beside a set.
   */
  private busy(peer: RoomPeer): boolean {
    for (const room of this.o.rooms.rooms.values()) if (room.seats.some((x) => x?.peer === peer)) return true;
    if (peer.owner.userId && this.o.rooms.playsRanked(peer.owner.userId)) return true;
    return this.o.busy?.(peer) ?? false;
  }

  /** Whether the account waits in this queue (from any tab). */
  queuedUser(userId: string): boolean {
    for (const u of this.units.values()) if (u.who.includes(userId)) return true;
    return false;
  }

  private leave(peer: RoomPeer, tell: boolean): void {
    const party = this.partyOf.get(peer);
    const unit = this.unitOf.get(peer);
    const others = new Set([...(party?.members ?? []), ...(unit?.members ?? [])].map((x) => x.peer).filter((p) => p !== peer));
    this.forget(peer);
    for (const p of others) p.send({ t: 'tunqueued', reason: 'partner_left' });
    if (tell) peer.send({ t: 'tunqueued', reason: 'left' });
  }

  /** The peer out of its queue entry (the whole unit: a pair goes together) and its party (dissolved). */
  private forget(peer: RoomPeer): void {
    const unit = this.unitOf.get(peer);
    if (unit) {
      this.units.delete(unit.id);
      for (const x of unit.members) this.unitOf.delete(x.peer);
    }
    const party = this.partyOf.get(peer);
    if (party) {
      this.parties.delete(party.code);
      for (const x of party.members) this.partyOf.delete(x.peer);
    }
  }

  private async rankedEntry(x: Member): Promise<RankedEntry> {
    const who = { userId: x.userId, address: x.peer.address, device: x.peer.device };
    if (this.o.rankedEntry) return this.o.rankedEntry(who);
    return (await import('@/lib/server/versus/pairing')).rankedEntry(who);
  }

  private async ratingOf(userId: string): Promise<Rating> {
    if (this.o.ratingOf) return this.o.ratingOf(userId);
    const { teamRatingOf } = await import('@/lib/server/versus/team-ratings');
    return teamRatingOf({ userId });
  }

  private tellParty(party: Party): void {
    const members = party.members.map((x) => x.peer.player);
    for (const x of party.members) x.peer.send({ t: 'tparty', code: party.code, members });
  }

  /** A pass a second from now while anyone waits, so windows widen without a new join. */
  private schedule(): void {
    if (this.timer !== null || this.units.size === 0) return;
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.pass();
    }, TEAM_LIMITS.passMs);
  }

  private newCode(): string {
    for (;;) {
      const code = Array.from(randomBytes(6), (b) => CODE_LETTERS[b % CODE_LETTERS.length]).join('');
      if (!this.parties.has(code)) return code;
    }
  }
}
