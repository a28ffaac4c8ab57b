import 'server-only';
import { usernameKey } from '@/lib/validations/auth';
import { ROLES, type Role } from '@/lib/validations/moderation';
import { getDb } from '@/lib/server/db';
import { forgetSessionState } from '@/lib/server/account/sessions';
import { logAction, type Actor } from '@/lib/server/moderation/audit';

export { ROLES, type Role };

export const canModerate = (role: string | null | undefined) => role === 'moderator' || role === 'admin';
export const isAdmin = (role: string | null | undefined) => role === 'admin';

export type RoleOutcome =
  | { ok: true }
  | { ok: false; code: 'not_found' | 'unchanged' | 'banned' | 'last_admin' | 'forbidden'; status: number; message: string };

const refuse = (code: Extract<RoleOutcome, { ok: false }>['code'], status: number, message: string): RoleOutcome => ({ ok: false, code, status, message });

/**
 * Sets a player's role: by an admin on /moderation, or from the shell (`npm run admin -- grant
 * <username> [moderator|admin]`, or `revoke`). Logged as `grant` when the role rises and `revoke`
 * when it falls. The site always keeps an admin: the admins' rows are locked first, so two admins
 * demoting each other at once cannot both succeed, and a signed-in actor must still be an admin
 * when the change is made. A banned player gets no role (an admin unbans first).
 */
export async function setRole(options: { username: string; role: Role; actor: Actor; now?: Date }): Promise<RoleOutcome> {
  const db = await getDb();
  const outcome = await db.$transaction(async (tx): Promise<RoleOutcome & { userId?: string }> => {
    const admins = (await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "User" WHERE "role" = 'admin' ORDER BY "id" FOR UPDATE`).map((a) => a.id);
    if (options.actor.id && !admins.includes(options.actor.id)) return refuse('forbidden', 403, 'Only admins can change roles.');
    const user = await tx.user.findUnique({ where: { usernameKey: usernameKey(options.username) }, select: { id: true, role: true, bannedAt: true } });
    if (!user) return refuse('not_found', 404, `No player ${options.username}.`);
    if (user.role === options.role) return refuse('unchanged', 409, `${options.username} is already ${options.role === 'admin' ? 'an' : 'a'} ${options.role}.`);
    if (user.bannedAt && options.role !== 'player') return refuse('banned', 409, `${options.username} is banned: unban them before giving them a role.`);
    if (user.role === 'admin' && admins.every((id) => id === user.id)) {
      return refuse('last_admin', 409, `${options.username} is the last admin: make someone else an admin first.`);
    }
    await tx.user.update({ where: { id: user.id }, data: { role: options.role } });
    const rising = ROLES.indexOf(options.role) > ROLES.indexOf(user.role as Role);
    await logAction(tx, { actor: options.actor, action: rising ? 'grant' : 'revoke', targetId: user.id, reason: `role set to ${options.role}`, now: options.now ?? new Date() });
    return { ok: true, userId: user.id };
  });
  if (!outcome.ok) return outcome;
  // After the commit: every session and live socket of the player is checked again with the new role.
  forgetSessionState(outcome.userId!);
  return { ok: true };
}

export type StaffMember = { username: string; role: Role };

/** Who holds a role now, admins first, for the admin's roles section on /moderation. */
export async function listStaff(): Promise<StaffMember[]> {
  const db = await getDb();
  const rows = await db.user.findMany({ where: { role: { in: ['moderator', 'admin'] } }, orderBy: [{ role: 'asc' }, { usernameKey: 'asc' }], take: 200, select: { username: true, role: true } });
  return rows.map((r) => ({ username: r.username, role: r.role as Role }));
}
