import 'server-only';
import { getDb } from '@/lib/server/db';
import { RENAME_INTERVAL_MS } from '@/lib/server/account/username';

/** What /account shows about the signed-in player. */
export async function accountOverview(options: { userId: string; now?: Date }) {
  const db = await getDb();
  const user = await db.user.findUnique({
    where: { id: options.userId },
    select: { username: true, passwordHash: true, accounts: { select: { provider: true } }, email: true, usernameChangedAt: true, banReason: true, bannedAt: true, _count: { select: { recoveryCodes: { where: { usedAt: null } } } } },
  });
  if (!user) return null;
  const next = user.usernameChangedAt && new Date(user.usernameChangedAt.getTime() + RENAME_INTERVAL_MS);
  return {
    username: user.username,
    hasPassword: user.passwordHash !== null,
    /** The providers it signs in with: an account without a password re-authenticates through them. */
    linkedProviders: user.accounts.map((a) => a.provider),
    email: user.email,
    recoveryCodesLeft: user._count.recoveryCodes,
    renameAfter: next && next > (options.now ?? new Date()) ? next.toISOString().slice(0, 10) : null,
    banReason: user.bannedAt ? (user.banReason ?? '') : null,
  };
}
