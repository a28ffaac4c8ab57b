import 'server-only';
import { isUniqueViolation } from '@/lib/db/errors';
import { usernameKey } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { forgetSessionState } from '@/lib/server/account/sessions';
import { isBuried, NAME_BANNED_MESSAGE, nameTombstone } from '@/lib/server/account/tombstones';
import { boardsChanged } from '@/lib/server/games/board-cache';

/** One rename per 30 days: names on boards and in replays stay recognisable. */
export const RENAME_INTERVAL_MS = 30 * 86_400_000;
/** How long `/u/old-name` keeps leading to the renamed player (then the name is free for anyone). */
export const REDIRECT_TTL_MS = 90 * 86_400_000;

export type RenameOutcome =
  | { ok: true; username: string }
  | { ok: false; code: 'username_taken' | 'username_banned' | 'rename_too_soon' | 'not_found'; message: string; retryAt?: Date };

/** Input must already have passed usernameSchema. */
export async function changeUsername(options: { userId: string; username: string; now?: Date }): Promise<RenameOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id: options.userId }, select: { username: true, usernameKey: true, usernameChangedAt: true } });
  if (!user) return { ok: false, code: 'not_found', message: 'No such account.' };
  const newKey = usernameKey(options.username);
  const caseOnly = newKey === user.usernameKey;
  const retryAt = user.usernameChangedAt && new Date(user.usernameChangedAt.getTime() + RENAME_INTERVAL_MS);
  // Fixing the case of one's own name is not a rename: no waiting, no redirect.
  if (!caseOnly && retryAt && retryAt > now) {
    return { ok: false, code: 'rename_too_soon', message: `You can change your username once every 30 days: next on ${retryAt.toISOString().slice(0, 10)}.`, retryAt };
  }
  // A name another player's redirect still holds is taken, unless it is the player's own old name.
  const held = await db.usernameRedirect.findFirst({ where: { oldKey: newKey, expiresAt: { gt: now }, userId: { not: options.userId } }, select: { oldKey: true } });
  if (held) return { ok: false, code: 'username_taken', message: 'That username is taken.' };
  if (!caseOnly && (await isBuried([nameTombstone(newKey)]))) return { ok: false, code: 'username_banned', message: NAME_BANNED_MESSAGE };
  try {
    await db.$transaction(async (tx) => {
      await tx.usernameRedirect.deleteMany({ where: { OR: [{ oldKey: newKey }, { expiresAt: { lte: now } }] } });
      await tx.user.update({
        where: { id: options.userId },
        data: { username: options.username, usernameKey: newKey, ...(caseOnly ? {} : { usernameChangedAt: now }) },
      });
      if (!caseOnly) {
        await tx.usernameRedirect.create({ data: { oldKey: user.usernameKey, userId: options.userId, expiresAt: new Date(now.getTime() + REDIRECT_TTL_MS) } });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, code: 'username_taken', message: 'That username is taken.' };
    throw error;
  }
  forgetSessionState(options.userId);
  // The boards show the name.
  boardsChanged();
  return { ok: true, username: options.username };
}

/** The current name of the player who had `username` before a recent rename, or null. */
export async function renamedTo(options: { username: string; now?: Date }): Promise<string | null> {
  const db = await getDb();
  const redirect = await db.usernameRedirect.findFirst({
    where: { oldKey: usernameKey(options.username), expiresAt: { gt: options.now ?? new Date() } },
    select: { user: { select: { username: true } } },
  });
  return redirect?.user.username ?? null;
}
