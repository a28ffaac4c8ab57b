import 'server-only';
import { getDb } from '@/lib/server/db';
import { forgetSessionState } from '@/lib/server/account/sessions';
import { buryIfBanned } from '@/lib/server/account/tombstones';
import { boardsChanged } from '@/lib/server/games/board-cache';

/**
 * Deletes the account and everything personal about it, in one transaction (docs/decisions/0013):
 * the user row, and through its foreign keys its linked logins, tickets, games with their replays,
 * bests (so every board), forfeit counts, tokens, recovery codes, redirects and reports by or
 * about the player. Rows that name the player without a foreign key are handled here: refused
 * submissions go, rate-limit counters keyed by the player go, and the moderation log keeps its
 * entries (what was done, by whom, to whom, when, why) with only the player's id blanked.
 * A banned account leaves tombstones of its name and e-mail (tombstones.ts): the ban outlives it.
 * Re-authentication is the caller's job (the route checks the password first).
 */
export async function deleteAccount(options: { userId: string }): Promise<{ ok: boolean }> {
  const db = await getDb();
  const deleted = await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: options.userId }, select: { usernameKey: true } });
    if (!user) return false;
    await buryIfBanned(tx, { userId: options.userId, now: new Date() });
    // The audit log is the site's record of who moderated whom: its names stay, as they were
    // written (snapshots); only the ids, which would name no account any more, go.
    await tx.moderationAction.updateMany({ where: { targetId: options.userId }, data: { targetId: null } });
    await tx.moderationAction.updateMany({ where: { moderatorId: options.userId }, data: { moderatorId: null } });
    await tx.rejectedSubmission.deleteMany({ where: { userId: options.userId } });
    // Limiter keys are `rule:subject` (limits/limiter.ts): per player by id, per account by name.
    await tx.rateLimit.deleteMany({
      where: {
        OR: [
          { key: { endsWith: `:${options.userId}` } },
          { key: `signInAccount:${user.usernameKey}` },
          { key: { startsWith: `signInAccountAddress:${user.usernameKey}@` } },
        ],
      },
    });
    await tx.user.delete({ where: { id: options.userId } });
    return true;
  });
  forgetSessionState(options.userId);
  // Its bests went with it (a cascade): off the boards here at once.
  boardsChanged();
  return { ok: deleted };
}
