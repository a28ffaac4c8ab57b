import 'server-only';
import type { Tx } from '@/lib/server/account/tx';
import { getDb } from '@/lib/server/db';

/** Who acted: a signed-in moderator, or the server's shell (`npm run review`, `npm run admin`). */
export type Actor = { id: string | null; name: string };
export const CONSOLE: Actor = { id: null, name: 'console' };

export const ACTIONS = ['approve', 'reject', 'ban', 'unban', 'dismiss', 'grant', 'revoke', 'void', 'dismiss_flag', 'confirm_flag'] as const;
export type ModerationActionName = (typeof ACTIONS)[number];

/** Writes one audit entry, in the transaction of the change it records. */
export async function logAction(
  tx: Tx,
  entry: { actor: Actor; action: ModerationActionName; gameId?: string | null; matchId?: string | null; targetId?: string | null; reason: string; now: Date },
): Promise<void> {
  const target = entry.targetId ? await tx.user.findUnique({ where: { id: entry.targetId }, select: { username: true } }) : null;
  await tx.moderationAction.create({
    data: {
      moderatorId: entry.actor.id,
      moderatorName: entry.actor.name,
      action: entry.action,
      gameId: entry.gameId ?? null,
      matchId: entry.matchId ?? null,
      targetId: entry.targetId ?? null,
      targetName: target?.username ?? null,
      reason: entry.reason,
      createdAt: entry.now,
    },
  });
}

export type AuditEntry = { id: string; moderatorName: string | null; action: string; gameId: string | null; matchId: string | null; targetName: string | null; reason: string; createdAt: Date };

/** The newest entries first. */
export async function listActions(options: { limit: number; targetId?: string }): Promise<AuditEntry[]> {
  const db = await getDb();
  return db.moderationAction.findMany({
    where: options.targetId ? { targetId: options.targetId } : {},
    orderBy: { createdAt: 'desc' },
    take: options.limit,
    select: { id: true, moderatorName: true, action: true, gameId: true, matchId: true, targetName: true, reason: true, createdAt: true },
  });
}
