import 'server-only';
import { MODE_NAMES } from '@/lib/engine';
import { usernameKey } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { forgetSessionState } from '@/lib/server/account/sessions';
import { logAction, type Actor } from '@/lib/server/moderation/audit';
import { closeReports } from '@/lib/server/moderation/reports';
import { rebuildBests } from '@/lib/server/moderation/rebuild';
import { boardsChanged } from '@/lib/server/games/board-cache';

export type BanOutcome = { ok: true; userId: string } | { ok: false; code: 'not_found' | 'not_allowed' | 'not_banned' | 'own_account'; status: number; message: string };

const OWN_ACCOUNT: BanOutcome = { ok: false, code: 'own_account', status: 403, message: 'Nobody bans or unbans themselves.' };

/**
 * Bans a player: every best goes (so every board), held games are rejected, open tickets are
 * spent (no game started before the ban can be submitted), and the reason is kept to show them.
 * Moderators and admins cannot be banned (an admin revokes the role first).
 */
export async function banPlayer(options: { username: string; reason: string; actor: Actor; now?: Date }): Promise<BanOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const user = await db.user.findUnique({ where: { usernameKey: usernameKey(options.username) }, select: { id: true, role: true } });
  if (!user) return { ok: false, code: 'not_found', status: 404, message: `No player ${options.username}.` };
  if (user.id === options.actor.id) return OWN_ACCOUNT;
  if (user.role !== 'player') return { ok: false, code: 'not_allowed', status: 409, message: 'Moderators and admins cannot be banned.' };
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { bannedAt: now, banReason: options.reason } });
    await tx.personalBest.deleteMany({ where: { userId: user.id } });
    await tx.game.updateMany({ where: { userId: user.id, reviewStatus: 'pending' }, data: { reviewStatus: 'rejected', reviewNote: options.reason, reviewedAt: now } });
    await tx.gameTicket.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: now } });
    await logAction(tx, { actor: options.actor, action: 'ban', targetId: user.id, reason: options.reason, now });
    await closeReports(tx, { targetId: user.id, status: 'resolved', now });
  });
  forgetSessionState(user.id);
  boardsChanged();
  return { ok: true, userId: user.id };
}

/** Lifts a ban: the player's games that were on the boards before come back to them. */
export async function unbanPlayer(options: { username: string; reason: string; actor: Actor; now?: Date }): Promise<BanOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const user = await db.user.findUnique({ where: { usernameKey: usernameKey(options.username) }, select: { id: true, bannedAt: true } });
  if (!user) return { ok: false, code: 'not_found', status: 404, message: `No player ${options.username}.` };
  if (user.id === options.actor.id) return OWN_ACCOUNT;
  if (!user.bannedAt) return { ok: false, code: 'not_banned', status: 409, message: `${options.username} is not banned.` };
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { bannedAt: null, banReason: null } });
    for (const mode of MODE_NAMES) await rebuildBests(tx, { userId: user.id, mode });
    await logAction(tx, { actor: options.actor, action: 'unban', targetId: user.id, reason: options.reason, now });
  });
  forgetSessionState(user.id);
  boardsChanged();
  return { ok: true, userId: user.id };
}
