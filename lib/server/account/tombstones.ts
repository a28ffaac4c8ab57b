import 'server-only';
import { createHash } from 'node:crypto';
import { usernameKey } from '@/lib/validations/auth';
import { emailKey } from '@/lib/validations/account';
import type { Tx } from '@/lib/server/account/tx';
import { getDb } from '@/lib/server/db';

/**
 * A ban outlives the account's deletion: deleting a banned account leaves tombstones of its name
 * (and the old names it still held) and of its confirmed e-mail, and none of them can be taken
 * again (sign-up, a rename, an OAuth account's name, confirming an address). The address is kept
 * as its sha256 only: enough to recognise it, not to mail it or read it back.
 */
export const nameTombstone = (username: string) => `name:${usernameKey(username)}`;
export const emailTombstone = (email: string) => `email:${createHash('sha256').update(emailKey(email)).digest('hex')}`;

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
    select: { usernameKey: true, email: true, bannedAt: true, banReason: true, redirects: { select: { oldKey: true } } },
  });
  if (!user?.bannedAt) return;
  const keys = [user.usernameKey, ...user.redirects.map((r) => r.oldKey)].map(nameTombstone);
  if (user.email) keys.push(emailTombstone(user.email));
  await tx.tombstone.createMany({
    data: keys.map((key) => ({ key, reason: user.banReason ?? 'banned', createdAt: options.now })),
    skipDuplicates: true,
  });
}
