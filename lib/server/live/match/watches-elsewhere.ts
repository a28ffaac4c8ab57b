import type { ServerMessage } from '@/lib/live/protocol';

/** A match watched on another instance (`at`), since when; `answered`: its catch-up came (before it, a refusal from `at` frees its place); `unwatched` before its answer. */
type WatchThere = { at: string; since: number; answered: boolean; unwatched: boolean };

/**
 * The matches each socket here watches on other instances, or waits to watch (its host died and
 * nobody took it up yet), by connection id: they count against the socket's watch budget here,
 * from the request on, since each host counts only its own peers. Answers name no request, so a
 * place is freed only by what can only answer the watch: its host's refusal before its answer,
 * the match's end, or the socket's own `vunwatch` (decision 0018).
 */
export class WatchesElsewhere {
  private readonly at = new Map<string, Map<string, WatchThere>>();
  private readonly waits = new Map<string, Set<string>>();
  /** A seat resumed through a host elsewhere: its catch-up of the field (which follows `vresumed` on the same channel) is its own, counted nowhere. */
  private readonly resumed = new Map<string, Set<string>>();

  /** Whether any socket here watches anything elsewhere (the list of instances then needs reading). */
  get any(): boolean {
    return this.at.size > 0;
  }

  /** The matches the socket holds a place for: watched elsewhere, or waiting to be taken up. */
  count(id: string): number {
    return this.places(id).size;
  }

  /** Whether the socket holds a place for this match already (watching it again takes none). */
  holds(id: string, matchId: string): boolean {
    return this.places(id).has(matchId);
  }

  private places(id: string): Set<string> {
    return new Set([...(this.at.get(id)?.keys() ?? []), ...(this.waits.get(id) ?? [])]);
  }

  /**
   * A `vwatch` relayed to `at`: counted, and waiting for its answer, which only `at` gives. Asked
   * again of the same host, a watch keeps its answer (that host ignores a watch it has) and its
   * age; asked of another host, it is a new request.
   */
  asked(id: string, matchId: string, at: string, now = Date.now()): void {
    const watches = this.at.get(id) ?? new Map<string, WatchThere>();
    const was = watches.get(matchId);
    const same = was?.at === at;
    this.at.set(id, watches.set(matchId, { at, since: same ? was.since : now, answered: same && was.answered, unwatched: false }));
  }

  /**
   * The socket's `vunwatch`: the watch ends. One asked and not answered yet stays counted until
   * its answer, which is then not passed on; one waiting for its match's take-up ends here.
   */
  unwatch(id: string, matchId: string): void {
    const waited = this.stopWaiting(id, matchId);
    const there = this.at.get(id)?.get(matchId);
    if (there && !there.answered && !waited) there.unwatched = true;
    else this.end(id, matchId);
  }

  /** Watched here now, or not at all: its place elsewhere is free. */
  end(id: string, matchId: string): void {
    const watches = this.at.get(id);
    if (watches?.delete(matchId) && watches.size === 0) this.at.delete(id);
  }

  /** Whether the socket ended this watch before its answer came (a host found gone will never give it). */
  unwatchedEarly(id: string, matchId: string): boolean {
    return this.at.get(id)?.get(matchId)?.unwatched ?? false;
  }

  /** Whether the socket already waits for this match's take-up. */
  waiting(id: string, matchId: string): boolean {
    return this.waits.get(id)?.has(matchId) ?? false;
  }

  wait(id: string, matchId: string): void {
    this.waits.set(id, (this.waits.get(id) ?? new Set<string>()).add(matchId));
  }

  /** The wait is over: whether it was still on (a `vunwatch` or the socket's close ends it). */
  stopWaiting(id: string, matchId: string): boolean {
    const was = this.waits.get(id)?.delete(matchId) ?? false;
    if (this.waits.get(id)?.size === 0) this.waits.delete(id);
    return was;
  }

  /**
   * What `from` answers this socket: whether it is passed on. False only for a catch-up nobody here
   * asked for (or one unwatched before it came): the caller ends that watch there too.
   */
  heard(id: string, from: string, m: ServerMessage): boolean {
    if (m.t === 'vover') {
      this.end(id, m.matchId);
      this.resumedCatchUp(id, from, m.matchId); // a resume whose catch-up was lost lets nothing through later
    }
    if (m.t === 'vresumed') this.resumed.set(id, (this.resumed.get(id) ?? new Set<string>()).add(`${from}:${m.matchId}`));
    // A refusal frees the place only from where the watch was asked and before its answer: any
    // error names a match, and one answering another request (a `rematch` at the home) must not
    // free the place of a live watch.
    if (m.t === 'error' && m.gameId && (m.code === 'unknown_match' || m.code === 'rate_limited')) {
      const there = this.at.get(id)?.get(m.gameId);
      if (there && !there.answered && there.at === from) this.end(id, m.gameId);
    }
    if (m.t !== 'vwatching') return true;
    // A seat's own catch-up, right after its resume there: no spectator's. Being seated is not
    // enough: a watch freed by a refusal that overtook it would then pass uncounted.
    if (this.resumedCatchUp(id, from, m.matchId)) return true;
    const there = this.at.get(id)?.get(m.matchId);
    if (!there || there.unwatched) {
      this.end(id, m.matchId);
      return false;
    }
    Object.assign(there, { at: from, since: Date.now(), answered: true });
    return true;
  }

  /** Spends the mark a seat's resume left for its catch-up from `from`: whether there was one. */
  private resumedCatchUp(id: string, from: string, matchId: string): boolean {
    const marks = this.resumed.get(id);
    const had = marks?.delete(`${from}:${matchId}`) ?? false;
    if (marks?.size === 0) this.resumed.delete(id);
    return had;
  }

  /** Watches on instances no longer listed (and asked of them before `listedSince`: a new instance may not have listed itself yet). */
  lost(alive: Set<string>, listedSince: number): Array<{ id: string; matchId: string; at: string }> {
    const found = [];
    for (const [id, watches] of this.at) {
      for (const [matchId, { at, since }] of watches) if (!alive.has(at) && since <= listedSince) found.push({ id, matchId, at });
    }
    return found;
  }

  /**
   * Watches the socket ended before an answer that has not come in `afterMs` (lost on the way, or
   * its host stalled and lost its publish): their places are free. A late answer is then one
   * nobody asked for, not passed on and ended there (`heard`).
   */
  expire(now: number, afterMs: number): void {
    for (const [id, watches] of this.at) {
      for (const [matchId, w] of watches) if (w.unwatched && !w.answered && now - w.since > afterMs) this.end(id, matchId);
    }
  }

  /** The sockets watching this match at `from` (which let it go). */
  watchersAt(from: string, matchId: string): string[] {
    return [...this.at].filter(([, watches]) => watches.get(matchId)?.at === from).map(([id]) => id);
  }

  /**
   * About to ask for the watch again (its host went or let it go): false if the socket ended it
   * before its answer (over now). Otherwise it keeps its place and its answer, and is aged anew,
   * so it is looked at again a list's time on.
   */
  again(id: string, matchId: string): boolean {
    const there = this.at.get(id)?.get(matchId);
    if (!there) return false;
    if (there.unwatched) {
      this.end(id, matchId);
      return false;
    }
    there.since = Date.now();
    return true;
  }

  /** The socket closed. */
  drop(id: string): void {
    this.at.delete(id);
    this.waits.delete(id);
    this.resumed.delete(id);
  }
}
