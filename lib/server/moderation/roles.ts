import 'server-only';
import { usernameKey } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { forgetSessionState } from '@/lib/server/account/sessions';
import { logAction, type Actor } from '@/lib/server/moderation/audit';

/** Roles in order of power: moderators work the queue; admins also make moderators. */
export const ROLES = ['player', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const canModerate = (role: string | null | undefined) => role === 'moderator' || role === 'admin';

/** Sets a player's role (`npm run admin -- grant <username> [moderator|admin]`, or `revoke`), logged like any moderation. */
export async function setRole(options: { username: string; role: Role; actor: Actor; now?: Date }): Promise<{ ok: true } | { ok: false; message: string }> {
  const db = await getDb();
  const user = await db.user.findUnique({ where: { usernameKey: usernameKey(options.username) }, select: { id: true } });
  if (!user) return { ok: false, message: `No player ${options.username}.` };
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { role: options.role } });
    await logAction(tx, { actor: options.actor, action: 'grant', targetId: user.id, reason: `role set to ${options.role}`, now: options.now ?? new Date() });
  });
  forgetSessionState(user.id);
  return { ok: true };
}
