import 'server-only';
import { createHash } from 'node:crypto';
import { usernameKey } from '@/lib/validations/auth';
import { emailKey } from '@/lib/validations/account';
import type { Tx } from '@/lib/server/account/tx';
import { getDb } from '@/lib/server/db';

/**
 * A ban outlives the account's deletion: deleting a banned account leaves tombstones of its name
 * (and the old names it still held), of its confirmed e-mail and of its linked logins, and none of
 * them can be taken again (sign-up, a rename, an OAuth account's name, confirming an address,
 * signing in with that GitHub or Discord login). Addresses and logins are kept as sha256 only:
 * enough to recognise them, not to read them back.
 */
export const nameTombstone = (username: string) => `name:${usernameKey(username)}`;
export const emailTombstone = (email: string) => `email:${createHash('sha256').update(emailKey(email)).digest('hex')}`;
/** A linked login (GitHub, Discord): signing in with it again would otherwise make a fresh account. */
export const oauthTombstone = (provider: string, providerAccountId: string) => `oauth:${createHash('sha256').update(`${provider}:${providerAccountId}`).digest('hex')}`;

export const NAME_BANNED_MESSAGE = 'That username belonged to a banned account and cannot be used again.';
export const EMAIL_BANNED_MESSAGE = 'That address belonged to a banned account and cannot be used again.';

/** Whether any of these tombstone keys exists. */
export async function isBuried(keys: string[], tx?: Tx): Promise<boolean> {
  const db = tx ?? (await getDb());
  return (await db.tombstone.count({ where: { key: { in: keys } } })) > 0;
}

/** In the deletion's transaction: the tombstones of a banned account (nothing for one in good standing). */
export async function buryIfBanned(tx: Tx, options: { userId: string; now: Date }): Promise<void> {
  const user = await tx.user.findUnique({
    where: { id: options.userId },
    select: { usernameKey: true, email: true, bannedAt: true, banReason: true, redirects: { select: { oldKey: true } }, accounts: { select: { provider: true, providerAccountId: true } } },
  });
  if (!user?.bannedAt) return;
  const keys = [user.usernameKey, ...user.redirects.map((r) => r.oldKey)].map(nameTombstone);
  if (user.email) keys.push(emailTombstone(user.email));
  keys.push(...user.accounts.map((a) => oauthTombstone(a.provider, a.providerAccountId)));
  await tx.tombstone.createMany({
    data: keys.map((key) => ({ key, reason: user.banReason ?? 'banned', createdAt: options.now })),
    skipDuplicates: true,
  });
}
