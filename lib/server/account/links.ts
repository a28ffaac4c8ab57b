import 'server-only';
import { getDb } from '@/lib/server/db';
import { newLinkToken, digestSecret } from '@/lib/server/account/tokens';
import { setPassword } from '@/lib/server/account/password';
import { forgetSessionState } from '@/lib/server/account/sessions';
import { Rollback, type RecoverOutcome } from '@/lib/server/account/recovery';
import { isUniqueViolation } from '@/lib/db/errors';
import { emailKey } from '@/lib/validations/account';
import { EMAIL_BANNED_MESSAGE, emailTombstone, isBuried } from '@/lib/server/account/tombstones';

/** A reset link works for 30 minutes, once; a verification link for a day. */
export const RESET_TTL_MS = 30 * 60_000;
export const VERIFY_TTL_MS = 24 * 60 * 60_000;

export { emailKey };

/**
 * A reset token for the account whose verified email this is, or null when there is none. The
 * caller answers the same either way (the page never tells whether an account exists).
 */
export async function createResetToken(options: { email: string; now?: Date }): Promise<{ token: string; username: string; email: string } | null> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const user = await db.user.findFirst({
    where: { email: emailKey(options.email), emailVerifiedAt: { not: null }, bannedAt: null },
    select: { id: true, username: true, email: true },
  });
  if (!user?.email) return null;
  const { token, hash } = newLinkToken();
  await db.$transaction([
    // Only the newest link works: an older mail that leaks later is useless.
    db.accountToken.deleteMany({ where: { userId: user.id, purpose: 'reset' } }),
    db.accountToken.create({ data: { userId: user.id, purpose: 'reset', tokenHash: hash, expiresAt: new Date(now.getTime() + RESET_TTL_MS), createdAt: now } }),
  ]);
  return { token, username: user.username, email: user.email };
}

/** Spends a reset token (once, before it expires) and sets the new password, signing out every session. */
export async function resetPassword(options: { token: string; password: string; now?: Date }): Promise<RecoverOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const refused = { ok: false, code: 'recovery_failed', message: 'This reset link has expired or was already used. Ask for a new one.' } as const;
  try {
    const outcome = await db.$transaction(async (tx) => {
      const spent = await tx.accountToken.updateManyAndReturn({
        where: { tokenHash: digestSecret(options.token), purpose: 'reset', usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
        select: { user: { select: { id: true, username: true } } },
      });
      const user = spent[0]?.user;
      if (!user) return refused;
      const outcome = await setPassword(tx, { userId: user.id, username: user.username, password: options.password });
      if (!outcome.ok) throw new Rollback(outcome);
      return { ...outcome, userId: user.id };
    });
    if (!outcome.ok) return outcome;
    // Again after the commit: a socket checked while the transaction was open read the old version.
    forgetSessionState(outcome.userId);
    return { ok: true, sessionVersion: outcome.sessionVersion };
  } catch (error) {
    if (error instanceof Rollback) return error.outcome;
    throw error;
  }
}

/** A link to confirm `email` for the player. The address is only stored on the account once confirmed. */
export async function createEmailToken(options: { userId: string; email: string; now?: Date }): Promise<string> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const { token, hash } = newLinkToken();
  await db.$transaction([
    db.accountToken.deleteMany({ where: { userId: options.userId, purpose: 'verify_email' } }),
    db.accountToken.create({
      data: { userId: options.userId, purpose: 'verify_email', email: emailKey(options.email), tokenHash: hash, expiresAt: new Date(now.getTime() + VERIFY_TTL_MS), createdAt: now },
    }),
  ]);
  return token;
}

export type VerifyEmailOutcome = { ok: true; email: string } | { ok: false; code: 'link_invalid' | 'email_taken' | 'email_banned'; message: string };

/** Follows a verification link: the account's email becomes the confirmed address. */
export async function verifyEmail(options: { token: string; now?: Date }): Promise<VerifyEmailOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  try {
    return await db.$transaction(async (tx) => {
      const [spent] = await tx.accountToken.updateManyAndReturn({
        where: { tokenHash: digestSecret(options.token), purpose: 'verify_email', usedAt: null, expiresAt: { gt: now } },
        data: { usedAt: now },
        select: { userId: true, email: true },
      });
      if (!spent?.email) return { ok: false, code: 'link_invalid', message: 'This link has expired or was already used.' } as const;
      if (await isBuried([emailTombstone(spent.email)], tx)) return { ok: false, code: 'email_banned', message: EMAIL_BANNED_MESSAGE } as const;
      await tx.user.update({ where: { id: spent.userId }, data: { email: spent.email, emailVerifiedAt: now } });
      return { ok: true, email: spent.email } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, code: 'email_taken', message: 'That address is already confirmed on another account.' };
    throw error;
  }
}

export async function removeEmail(options: { userId: string }): Promise<void> {
  const db = await getDb();
  await db.user.update({ where: { id: options.userId }, data: { email: null, emailVerifiedAt: null } });
}
