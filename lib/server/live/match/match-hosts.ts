import 'server-only';
import { timingSafeEqual } from 'node:crypto';
import type { VersusClientMessage, VersusMessage } from '@/lib/live/protocol';
import { CLUSTER } from '@/lib/server/live/cluster/cluster';
import type { MatchLeases } from '@/lib/server/live/cluster/match-leases';
import type { RedisMatchCheckpoints } from '@/lib/server/live/cluster/match-checkpoints';
import { sameOwner, type Connection } from '@/lib/server/live/connection';
import { MatchRestoreError } from '@/lib/server/live/match/match-checkpoint';
import type { Placements } from '@/lib/server/live/match/placements';
import type { VersusLobby } from '@/lib/server/live/match/versus-lobby';

/** Matches are leased and checkpointed one by one (docs/decisions/0018): how the relay finds and takes them up. */
export type MatchRouting = { leases: MatchLeases; checkpoints: RedisMatchCheckpoints };

/** `hostOf`'s answer for a socket it closed: nothing more is done with the message. */
export const CLOSED = '';

/** At most this many matches are being taken up here at once; the rest wait their turn (a dead instance's players all come back together). */
const ADOPTING_AT_ONCE = 8;

/** A socket whose resumes named this many matches it holds no seat of is answered `rate_limited` from then on: it reads nothing more. */
const FAILED_TAKE_UPS_PER_SOCKET = 5;

type Resume = Extract<VersusClientMessage, { t: 'vresume' }>;

/**
 * Where each match is hosted, as this instance sees it: here (its lease held), the holder of its
 * lease, or nobody; and the take-up here of a match whose host died, for a player seated in it who
 * resumes with the seat's token (docs/decisions/0018).
 */
export class MatchHosts {
  private adopting = 0;
  private readonly adoptWaiters: Array<() => void> = [];
  /** Per socket: resumes that would have taken up a match it holds no seat of. */
  private readonly failedTakeUps = new WeakMap<Connection, number>();
  /** Matches whose host died that spectators wait on, by id: one look at the lease every half second for all of them. */
  private readonly awaited = new Map<string, Promise<string | null>>();
  private readonly sweeper: NodeJS.Timeout;
  private sweeping: Promise<number> | null = null;
  private stopped = false;

  constructor(
    private readonly o: {
      routing: MatchRouting;
      lobby: VersusLobby;
      instance: string;
      placements: Placements | null;
      /** Sends the message on to the instance hosting its match (the relay's). */
      relay: (conn: Connection, m: VersusMessage, to: string, matchId: string) => Promise<void>;
    },
  ) {
    this.sweeper = setInterval(() => void this.sweep().catch((error: unknown) => console.error('[live] a sweep for decided matches failed:', error)), CLUSTER.decidedSweepMs);
    this.sweeper.unref();
  }

  /** The server stops (a drain), or closes: no more matches are taken up here to be stored. */
  close(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
  }

  /**
   * Stores here the matches decided and not stored whose host is gone (it died, or exited while the
   * database was away, before it could store them): nobody resumes a match that is over, so without
   * this its checkpoint would expire and the match be lost. One whose host lives (its lease held,
   * its store still tried there) is left to it. A few at a time, one sweep at a time; resolves with
   * how many were taken up here.
   */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    let taken = 0;
    // Written a lease's time ago at least: a host storing it rewrites it on every try.
    for (const matchId of await this.o.routing.checkpoints.decided(Date.now() - CLUSTER.leaseMs, ADOPTING_AT_ONCE)) {
      if (this.stopped) break;
      try {
        if (await this.storeDecided(matchId)) {
          taken++;
          continue;
        }
      } catch (error) {
        // One that cannot be taken up this time (Redis away, a bug in its replay) stays listed; the others go on.
        console.error(`[live] decided match ${matchId} could not be taken up to be stored:`, error);
      }
      // Left listed (its host lives, or it failed): behind the others, so a few such cannot keep them waiting.
      this.o.routing.checkpoints.postpone(matchId);
    }
    return taken;
  }

  /**
   * One decided match nobody holds, taken up here and stored. Read before its lease is taken, as a
   * resume's take-up does: between the take and the restore nothing waits, so the lease is never
   * renewed for a match not hosted here yet. Unlisted only once its checkpoint is gone, or will not
   * replay here.
   */
  private async storeDecided(matchId: string): Promise<boolean> {
    const { routing, lobby, placements } = this.o;
    const { leases, checkpoints } = routing;
    if (lobby.matches.has(matchId)) return false;
    leases.forget(matchId);
    if ((await leases.holder(matchId)) !== null) return false;
    const cp = await checkpoints.read(matchId);
    if (!cp) {
      if (!(await checkpoints.exists(matchId))) checkpoints.unlist(matchId);
      return false;
    }
    if (cp.phase !== 'over' || this.stopped || lobby.matches.has(matchId) || !(await leases.take(matchId))) return false;
    try {
      lobby.adopt(cp, null, cp.placed && placements ? placements.reportFrom(cp, cp.placed) : undefined);
    } catch (error) {
      leases.release(matchId);
      if (!(error instanceof MatchRestoreError)) throw error;
      console.error(`[live] decided match ${matchId} cannot be taken up here, and is no longer looked for: ${error.message}`);
      checkpoints.unlist(matchId);
      return false;
    }
    if (cp.placed) placements?.takenUp(cp.placed);
    return true;
  }

  /** Whether this socket has named too many matches it holds no seat of. */
  refused(conn: Connection): boolean {
    return (this.failedTakeUps.get(conn) ?? 0) >= FAILED_TAKE_UPS_PER_SOCKET;
  }

  /** Where a match is hosted: here, another instance, or nobody (null); CLOSED if the socket was closed. A `vresume` for a match nobody holds takes it up here. */
  async hostOf(conn: Connection, m: VersusMessage, matchId: string): Promise<string | null> {
    const { routing, lobby, instance } = this.o;
    if (this.hostedHere(matchId)) return instance;
    const holder = await routing.leases.holder(matchId);
    if (holder !== null && holder !== instance) return holder;
    if (holder === null && m.t === 'vresume') {
      if (await this.adopt(conn, m)) return instance;
      // Taken up meanwhile (by this instance for the other seat, or by another): the resume goes there.
      routing.leases.forget(matchId);
      const now = await routing.leases.holder(matchId);
      return lobby.matches.has(matchId) ? instance : now;
    }
    // A batch for a match whose host died while this socket stayed open: it reconnects and resumes.
    if (holder === null && m.t === 'inputs' && (await routing.checkpoints.exists(matchId).catch(() => false))) {
      conn.close(1012, 'The server hosting your match has gone: reconnecting takes it up elsewhere.');
      return CLOSED;
    }
    return holder;
  }

  /** Whether the match is hosted here and its lease still held; one whose lease lapsed (a stall) is stopped first. */
  hostedHere(matchId: string): boolean {
    const { routing, lobby } = this.o;
    if (!lobby.matches.has(matchId)) return false;
    if (routing.leases.held(matchId)) return true;
    lobby.stop(matchId);
    return false;
  }

  /** A resume whose host did not answer: once its lease is gone (at most a lease's time), the match is taken up here. */
  async resumeOrphan(conn: Connection, m: Resume): Promise<void> {
    const { routing, lobby, instance } = this.o;
    const deadline = Date.now() + CLUSTER.leaseMs + CLUSTER.renewEveryMs;
    while (conn.open && Date.now() < deadline) {
      // The other seat's resume may have taken it up here meanwhile.
      if (lobby.matches.has(m.matchId)) return lobby.handle(conn, m);
      routing.leases.forget(m.matchId);
      const holder = await routing.leases.holder(m.matchId);
      if (holder === null) {
        if ((await this.adopt(conn, m)) || lobby.matches.has(m.matchId)) return lobby.handle(conn, m);
        // Lost the race to take it up (another instance has it now: looked up again), or refused.
        routing.leases.forget(m.matchId);
        if ((await routing.leases.holder(m.matchId)) === null) break;
        continue;
      }
      if (holder !== instance && holder !== conn.relayedTo) return this.o.relay(conn, m, holder, m.matchId);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (conn.open) conn.error('resume_failed', 'That match cannot be taken up again (over, or not yours).', { gameId: m.matchId });
  }

  /**
   * Where a match whose host died (`gone`, whose lease may still stand; null if none holds it) is
   * hosted next, for a spectator: the instance a player's resume takes it up on, or null if none
   * does within CLUSTER.watchTakeUpWaitMs, or if it has no checkpoint (over, or never was: answered at
   * once). A spectator takes nothing up: only a seat's owner does (adopt). Spectators of one match
   * share one wait, so a dead host's audience costs Redis one read a half second per match.
   */
  nextHost(matchId: string, gone: string | null): Promise<string | null> {
    let next = this.awaited.get(matchId);
    if (!next) {
      next = this.awaitHost(matchId, gone).finally(() => this.awaited.delete(matchId));
      this.awaited.set(matchId, next);
    }
    return next;
  }

  private async awaitHost(matchId: string, gone: string | null): Promise<string | null> {
    const { routing, lobby, instance } = this.o;
    const began = Date.now();
    for (let looks = 0; Date.now() - began < CLUSTER.watchTakeUpWaitMs; looks++, await new Promise((r) => setTimeout(r, 500).unref())) {
      if (lobby.matches.has(matchId)) return instance;
      // The first look takes the holder the message was routed by (a second old at most): a made-up id costs one read more, not two.
      if (looks > 0) routing.leases.forget(matchId);
      const holder = await routing.leases.holder(matchId);
      // Still `gone`'s a lease's time on: it renewed it, so it lives (it missed a message, no more).
      if (holder !== null && (holder !== gone || Date.now() - began > CLUSTER.leaseMs + CLUSTER.renewEveryMs)) return holder;
      // Redis not answering (this instance cut off from it, say) is no answer: looked at again.
      if (holder === null && !(await routing.checkpoints.exists(matchId).catch(() => true))) return null;
    }
    return null;
  }

  /**
   * Takes up a match nobody hosts from its checkpoint, for a player seated in it who holds the
   * seat's token: naming a match's id makes no instance take it up. The seat is checked on the
   * checkpoint's small head first: a stranger's resume reads nothing more and waits for no slot,
   * and a socket's failures are counted (FAILED_TAKE_UPS_PER_SOCKET). At most ADOPTING_AT_ONCE
   * take-ups at a time here. True once the match is hosted here.
   */
  private async adopt(conn: Connection, m: Resume): Promise<boolean> {
    const { routing, lobby, placements } = this.o;
    const { leases, checkpoints } = routing;
    if (lobby.matches.has(m.matchId)) return true;
    const owner = await checkpoints.seatOf(m.matchId, m.token);
    if (!owner || !sameOwner(owner, conn)) {
      this.failedTakeUps.set(conn, (this.failedTakeUps.get(conn) ?? 0) + 1);
      return false;
    }
    // A slot is handed from one take-up to the next waiting one, so none starts past the bound.
    if (this.adopting >= ADOPTING_AT_ONCE) await new Promise<void>((resolve) => this.adoptWaiters.push(resolve));
    else this.adopting++;
    try {
      if (lobby.matches.has(m.matchId)) return true; // taken up here meanwhile, for the other seat
      const cp = await checkpoints.read(m.matchId).catch(() => null);
      if (!cp) return false;
      const seated = ([0, 1] as const).some((s) => sameOwner(cp.seats[s].owner, conn) && sameToken(cp.state[s].token, m.token));
      if (!seated || !conn.open) return false;
      if (!(await leases.take(m.matchId))) return false;
      try {
        // A match the home placed reports its end to that home, from here now.
        lobby.adopt(cp, conn, cp.placed && placements ? placements.reportFrom(cp, cp.placed) : undefined);
        if (cp.placed) placements?.takenUp(cp.placed);
      } catch (error) {
        leases.release(m.matchId);
        if (!(error instanceof MatchRestoreError)) throw error;
        console.error(`[live] match ${m.matchId} could not be taken up: ${error.message}`);
        return false;
      }
      return true;
    } finally {
      const next = this.adoptWaiters.shift();
      if (next) next();
      else this.adopting--;
    }
  }
}

function sameToken(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}
