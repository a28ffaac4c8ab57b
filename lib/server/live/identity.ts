import 'server-only';
import { sessionState, sessionStates, type SessionState } from '@/lib/server/account/sessions';
import type { Connection, SocketSession } from '@/lib/server/live/connection';

/**
 * A change to a player's session (a ban, "sign out everywhere", a new password, a new role, the
 * account deleted) may be made inside a transaction, and heard of before it commits: the sockets
 * are checked again this long after.
 */
const CHECK_AGAIN_MS = 2_000;

/** Whether a socket opened with `session` still plays as its player, given the player's state now. */
export function sessionHolds(session: SocketSession, state: SessionState | null): boolean {
  return state !== null && state.version === session.version && state.role === session.role;
}

/** At most this many players in one read of the periodic sweep. */
const SWEEP_CHUNK = 1_000;

/**
 * The signed-in players' sockets on this instance, by player. When a player's session state
 * changes (account/sessions.ts forgetSessionState, on this instance or, over the bus, another),
 * each of their sockets is checked against a fresh read (applyState). A sweep does the same for
 * every player at once, one read per thousand players: what nothing announced (a change made by
 * another process without Redis, `npm run admin`, a bus message lost while Redis was away) is
 * caught at the hub's next heartbeat.
 */
export class PlayerSockets {
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly again = new Map<string, NodeJS.Timeout>();

  add(conn: Connection): void {
    const userId = conn.owner.userId;
    if (!userId) return;
    const set = this.byUser.get(userId) ?? new Set();
    this.byUser.set(userId, set);
    set.add(conn);
  }

  remove(conn: Connection): void {
    const userId = conn.owner.userId;
    const set = userId ? this.byUser.get(userId) : undefined;
    if (!set?.delete(conn) || set.size > 0) return;
    this.byUser.delete(userId!);
  }

  /** The player's state changed somewhere: their sockets here are checked now, and once more a little later. */
  changed(userId: string): void {
    if (!this.byUser.has(userId)) return;
    void this.check(userId);
    clearTimeout(this.again.get(userId));
    this.again.set(userId, setTimeout(() => (this.again.delete(userId), void this.check(userId)), CHECK_AGAIN_MS).unref());
  }

  private sweeping = false;

  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const ids = [...this.byUser.keys()];
      for (let i = 0; i < ids.length; i += SWEEP_CHUNK) {
        const states = await sessionStates(ids.slice(i, i + SWEEP_CHUNK)).catch(() => null);
        // The database is away: the next sweep looks again.
        for (const [userId, state] of states ?? []) for (const conn of this.byUser.get(userId) ?? []) applyState(conn, state);
      }
    } finally {
      this.sweeping = false;
    }
  }

  close(): void {
    for (const timer of this.again.values()) clearTimeout(timer);
    this.again.clear();
  }

  private async check(userId: string): Promise<void> {
    const state = await sessionState({ userId, fresh: true }).catch(() => undefined);
    // The database is away: the next change, or the next start or queue (identityOf), checks again.
    if (state === undefined) return;
    for (const conn of this.byUser.get(userId) ?? []) applyState(conn, state);
  }
}

/**
 * Before a player's write that waits anyway (a start, a quick-match entry, a resume): the session
 * as this instance knows it now (account/sessions.ts, a 10-second cache this instance's own changes
 * clear at once). 'gone' closes the socket. Guests are always themselves.
 */
export async function identityOf(conn: Connection): Promise<'ok' | 'banned' | 'gone'> {
  const userId = conn.owner.userId;
  if (!userId || !conn.session) return 'ok';
  const state = await sessionState({ userId }).catch(() => undefined);
  if (state !== undefined) applyState(conn, state);
  if (!conn.open) return 'gone';
  return conn.session.banned ? 'banned' : 'ok';
}

/**
 * A socket whose session no longer holds is closed; so is one whose player was banned since it
 * opened (whatever it was playing, queueing for or holding a room for goes with it; the browser
 * dials again as a banned player, who may watch). A ban lifted frees the ones that stay.
 */
function applyState(conn: Connection, state: SessionState | null): void {
  if (!conn.session || !conn.open) return;
  if (!sessionHolds(conn.session, state)) return conn.close(1008, 'Your session has ended: sign in again.');
  const banned = state!.banReason !== null;
  if (banned && !conn.session.banned) return conn.close(1008, 'This account has been banned.');
  conn.session.banned = banned;
}
