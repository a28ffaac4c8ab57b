import 'server-only';
import { getDb } from '@/lib/server/db';
import type { Tx } from '@/lib/server/account/tx';

/** What a session check needs to know about its player, beyond what the JWT carries. */
export type SessionState = { username: string; version: number; role: string; banReason: string | null };

/**
 * How long one process trusts what it read. Sessions are JWTs: without a check, a signed-out or
 * password-changed session would work until it expires. With this cache a signed-in player costs
 * one small read per 10 s per process instead of one per request (boards are the hottest read);
 * this process drops its entry at once when the version changes, other processes within 10 s.
 */
export const SESSION_STATE_TTL_MS = 10_000;

// On globalThis: Next bundles route handlers and pages apart, and each bundle would otherwise get
// its own map, so a route that forgot an entry would leave a page's stale one in place.
const holder = globalThis as typeof globalThis & {
  __linefallSessionStates?: Map<string, { state: SessionState | null; at: number }>;
  __linefallSessionListeners?: Set<(userId: string) => void>;
};
const cache = (holder.__linefallSessionStates ??= new Map());
const listeners = (holder.__linefallSessionListeners ??= new Set());

const STATE_FIELDS = { username: true, sessionVersion: true, role: true, banReason: true, bannedAt: true } as const;
type StateRow = { username: string; sessionVersion: number; role: string; banReason: string | null; bannedAt: Date | null };
const stateOf = (user: StateRow): SessionState => ({ username: user.username, version: user.sessionVersion, role: user.role, banReason: user.bannedAt ? (user.banReason ?? '') : null });

function remember(userId: string, state: SessionState | null): void {
  if (cache.size > 50_000) cache.clear();
  cache.set(userId, { state, at: Date.now() });
}

/** The player's session state (null: the account is gone). `fresh` skips the cache: for writes. */
export async function sessionState(options: { userId: string; fresh?: boolean }): Promise<SessionState | null> {
  const hit = cache.get(options.userId);
  if (!options.fresh && hit && Date.now() - hit.at < SESSION_STATE_TTL_MS) return hit.state;
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id: options.userId }, select: STATE_FIELDS });
  const state = user && stateOf(user);
  remember(options.userId, state);
  return state;
}

/** Several players' states in one read, fresh (null: the account is gone): the live hub's periodic look at its sockets. */
export async function sessionStates(userIds: readonly string[]): Promise<Map<string, SessionState | null>> {
  const db = await getDb();
  const rows = await db.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, ...STATE_FIELDS } });
  const out = new Map<string, SessionState | null>(userIds.map((id) => [id, null]));
  for (const row of rows) out.set(row.id, stateOf(row));
  for (const [id, state] of out) remember(id, state);
  return out;
}

/**
 * Every change to who a player is goes through here: a ban or unban, a new session version (sign
 * out everywhere, a password changed or reset), a role change, a rename, the account's deletion.
 * Callers call it once the change is committed. It drops this process's cached state and tells the
 * listeners (the live hub closes the sockets whose session no longer holds, on every instance).
 */
export function forgetSessionState(userId: string): void {
  cache.delete(userId);
  for (const listener of listeners) {
    try {
      listener(userId);
    } catch (error) {
      // A listener's failure must not undo, or hide, the change that was just committed.
      console.error('[sessions] a listener for a changed identity failed', error);
    }
  }
}

/** Called with the player's id whenever forgetSessionState is; returns the function that stops it. */
export function onSessionStateForgotten(fn: (userId: string) => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

/**
 * Signs out every session of the player issued so far; returns the new version for the caller's
 * own new session. Forgets the state at once; a caller inside a longer transaction forgets it again
 * after its commit (a socket checked in between would still have read the old version).
 */
export async function bumpSessionVersion(tx: Tx, userId: string): Promise<number> {
  const { sessionVersion } = await tx.user.update({ where: { id: userId }, data: { sessionVersion: { increment: 1 } }, select: { sessionVersion: true } });
  forgetSessionState(userId);
  return sessionVersion;
}
