import 'server-only';
import { passwordSchema } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { checkPassword, hashPassword } from '@/lib/server/password';
import { passwordProblem } from '@/lib/server/password-policy';
import { bumpSessionVersion } from '@/lib/server/account/sessions';
import type { Tx } from '@/lib/server/account/tx';

export type PasswordOutcome =
  | { ok: true; sessionVersion: number }
  | { ok: false; code: 'wrong_password' | 'weak_password' | 'not_found'; message: string };

/**
 * Re-authentication before a grave step: whether `password` is the account's current one. An
 * account made through OAuth has no password to re-enter; its fresh session (and, for deletion,
 * the typed confirmation) stand in for it.
 */
export async function reauthenticate(options: { userId: string; password: string }): Promise<boolean> {
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id: options.userId }, select: { passwordHash: true } });
  if (!user) return false;
  if (!user.passwordHash) return true;
  return (await checkPassword(user.passwordHash, options.password)).ok;
}

/**
 * Sets a new password (through the sign-up policy) and signs out every other session: the
 * caller gets the new session version to reissue its own. Accounts made through OAuth set a
 * first password without a current one.
 */
export async function changePassword(options: { userId: string; current: string; next: string }): Promise<PasswordOutcome> {
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id: options.userId }, select: { username: true, passwordHash: true } });
  if (!user) return { ok: false, code: 'not_found', message: 'No such account.' };
  if (user.passwordHash && !(await checkPassword(user.passwordHash, options.current)).ok) {
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
