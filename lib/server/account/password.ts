import 'server-only';
import { passwordSchema } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { checkPassword, hashPassword } from '@/lib/server/password';
import { passwordProblem } from '@/lib/server/password-policy';
import { bumpSessionVersion } from '@/lib/server/account/sessions';
import type { Tx } from '@/lib/server/account/tx';

export type PasswordOutcome =
  | { ok: true; sessionVersion: number }
  | { ok: false; code: 'wrong_password' | 'weak_password' | 'not_found'; message: string }
  | ReauthRequired;

/** An account without a password proves itself by signing in again with its provider. */
export type ReauthRequired = { ok: false; code: 'reauth_required'; message: string; providers: string[] };

/**
 * How recent a sign-in must be to stand in for a password on an account that has none (made
 * through OAuth): a stolen session cookie is not a stolen GitHub or Discord login.
 */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

export type ReauthOutcome = { ok: true } | { ok: false; code: 'wrong_password'; message: string } | ReauthRequired;

/** Whether a session signed in at `signedInAt` (ms; null: unknown) counts as a fresh proof at `now`. */
export const signedInRecently = (signedInAt: number | null, now: number) => signedInAt !== null && signedInAt <= now && now - signedInAt <= RECENT_SIGN_IN_MS;

/**
 * Re-authentication before a grave step: `password` is the account's current one; or, for an
 * account that has none (OAuth), the session signed in through its provider within
 * RECENT_SIGN_IN_MS, else the player is asked to sign in again with it (`providers`).
 */
export async function reauthenticate(options: { userId: string; password: string; signedInAt: number | null; now?: number }): Promise<ReauthOutcome> {
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id: options.userId }, select: { passwordHash: true, accounts: { select: { provider: true } } } });
  if (!user) return { ok: false, code: 'wrong_password', message: 'Your password is not right.' };
  if (!user.passwordHash) return freshSignIn(user.accounts.map((a) => a.provider), options.signedInAt, options.now ?? Date.now());
  return (await checkPassword(user.passwordHash, options.password)).ok ? { ok: true } : { ok: false, code: 'wrong_password', message: 'Your password is not right.' };
}

function freshSignIn(providers: string[], signedInAt: number | null, now: number): { ok: true } | ReauthRequired {
  if (signedInRecently(signedInAt, now)) return { ok: true };
  const names = providers.length ? providers.map((p) => p[0]!.toUpperCase() + p.slice(1)).join(' or ') : 'your provider';
  return {
    ok: false, code: 'reauth_required', providers,
    message: `Confirm it is you: sign in again with ${names}, then do this within ${RECENT_SIGN_IN_MS / 60_000} minutes.`,
  };
}

/**
 * Sets a new password (through the sign-up policy) and signs out every other session: the
 * caller gets the new session version to reissue its own. Accounts made through OAuth set a
 * first password without a current one, after a recent sign-in with their provider.
 */
export async function changePassword(options: { userId: string; current: string; next: string; signedInAt: number | null; now?: number }): Promise<PasswordOutcome> {
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id: options.userId }, select: { username: true, passwordHash: true, accounts: { select: { provider: true } } } });
  if (!user) return { ok: false, code: 'not_found', message: 'No such account.' };
  if (!user.passwordHash) {
    const fresh = freshSignIn(user.accounts.map((a) => a.provider), options.signedInAt, options.now ?? Date.now());
    if (!fresh.ok) return fresh;
  } else if (!(await checkPassword(user.passwordHash, options.current)).ok) {
    return { ok: false, code: 'wrong_password', message: 'Your current password is not right.' };
  }
  return setPassword(db, { userId: options.userId, username: user.username, password: options.next });
}

/** Stores a new password after the policy check and bumps the session version: one transaction with what the caller already did in `tx`. */
export async function setPassword(tx: Tx, options: { userId: string; username: string; password: string }): Promise<PasswordOutcome> {
  const parsed = passwordSchema.safeParse(options.password);
  const problem = parsed.success ? passwordProblem(options.password, options.username) : (parsed.error.issues[0]?.message ?? 'Invalid password');
  if (problem) return { ok: false, code: 'weak_password', message: problem };
  const passwordHash = await hashPassword(options.password);
  await tx.user.update({ where: { id: options.userId }, data: { passwordHash } });
  // Reset links still out there would otherwise work after the player chose a password themselves.
  await tx.accountToken.deleteMany({ where: { userId: options.userId, purpose: 'reset' } });
  return { ok: true, sessionVersion: await bumpSessionVersion(tx, options.userId) };
}
