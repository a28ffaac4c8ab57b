import 'server-only';
import { isUniqueViolation } from '@/lib/db/errors';
import { usernameKey } from '@/lib/validations/auth';
import type { ReportInput } from '@/lib/validations/moderation';
import type { Tx } from '@/lib/server/account/tx';
import { getDb } from '@/lib/server/db';

export type ReportOutcome =
  | { ok: true; id: string }
  | { ok: false; code: 'not_found' | 'already_reported' | 'own_report'; status: number; message: string };

/** Files a report of a game (or, from a profile, of a player). One open report per reporter and game or player. */
export async function fileReport(options: { reporterId: string; report: ReportInput; now?: Date }): Promise<ReportOutcome> {
  const { report } = options;
  const db = await getDb();
  const target = report.gameId
    ? await db.game.findUnique({ where: { id: report.gameId }, select: { id: true, userId: true } })
    : await db.user.findUnique({ where: { usernameKey: usernameKey(report.username ?? '') }, select: { id: true } }).then((u) => u && { id: null, userId: u.id });
  if (!target?.userId) return { ok: false, code: 'not_found', status: 404, message: report.gameId ? 'No such game (or it belongs to a guest).' : 'No such player.' };
  if (target.userId === options.reporterId) return { ok: false, code: 'own_report', status: 400, message: 'You cannot report your own games.' };
  const openKey = target.id ?? `player:${target.userId}`;
  try {
    const created = await db.report.create({
      data: {
        reporterId: options.reporterId, targetId: target.userId, gameId: target.id, reason: report.reason, note: report.note || null,
        openKey, createdAt: options.now ?? new Date(),
      },
      select: { id: true },
    });
    return { ok: true, id: created.id };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, code: 'already_reported', status: 409, message: 'You have already reported this; a moderator will look at it.' };
    throw error;
  }
}

/** Closes the open reports about a game (or a player's profile): they are answered by the action being logged. */
export async function closeReports(tx: Tx, options: { gameId?: string; targetId?: string; reportId?: string; status: 'resolved' | 'dismissed'; now: Date }): Promise<number> {
  const where = options.reportId ? { id: options.reportId } : options.gameId ? { gameId: options.gameId } : { targetId: options.targetId };
  const { count } = await tx.report.updateMany({ where: { ...where, status: 'open' }, data: { status: options.status, openKey: null, closedAt: options.now } });
  return count;
}

export type OpenReport = {
  id: string; gameId: string | null; reason: string; note: string | null; createdAt: Date;
  reporter: string; target: { id: string; username: string };
};

export async function listOpenReports(options: { limit: number }): Promise<OpenReport[]> {
  const db = await getDb();
  const rows = await db.report.findMany({
    where: { status: 'open' },
    orderBy: { createdAt: 'asc' },
    take: options.limit,
    select: {
      id: true, gameId: true, reason: true, note: true, createdAt: true,
      reporter: { select: { username: true } }, target: { select: { id: true, username: true } },
    },
  });
  return rows.map(({ reporter, ...r }) => ({ ...r, reporter: reporter.username }));
}
