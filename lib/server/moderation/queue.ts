import 'server-only';
import { getDb } from '@/lib/server/db';
import { listActions, type AuditEntry } from '@/lib/server/moderation/audit';
import { listHeldGames, type HeldGame } from '@/lib/server/games/review';
import { listOpenReports, type OpenReport } from '@/lib/server/moderation/reports';
import { listOpenFlags, type OpenFlag } from '@/lib/server/integrity/flags';

export type PlayerHistory = { username: string; games: number; held: number; rejected: number; reports: number; banned: boolean; createdAt: Date };

export type Queue = { held: HeldGame[]; reports: OpenReport[]; flags: OpenFlag[]; players: Record<string, PlayerHistory>; log: AuditEntry[] };

/** What /moderation shows: held games, open reports, players flagged across games, the history of every player in them, and the audit log. */
export async function moderationQueue(options: { limit: number }): Promise<Queue> {
  const [held, reports, flags, log] = await Promise.all([
    listHeldGames({ limit: options.limit }), listOpenReports({ limit: options.limit }), listOpenFlags({ limit: options.limit }), listActions({ limit: 50 }),
  ]);
  const ids = [...new Set([...held.flatMap((g) => (g.userId ? [g.userId] : [])), ...reports.map((r) => r.target.id), ...flags.map((f) => f.userId)])];
  return { held, reports, flags, log, players: await historyOf(ids) };
}

async function historyOf(userIds: string[]): Promise<Record<string, PlayerHistory>> {
  if (userIds.length === 0) return {};
  const db = await getDb();
  const users = await db.user.findMany({
    where: { id: { in: userIds } },
    select: { id: true, username: true, createdAt: true, bannedAt: true, _count: { select: { games: true, reportsAbout: true } } },
  });
  const statuses = await db.game.groupBy({ by: ['userId', 'reviewStatus'], where: { userId: { in: userIds }, reviewStatus: { in: ['pending', 'rejected'] } }, _count: true });
  const count = (userId: string, status: string) => statuses.find((s) => s.userId === userId && s.reviewStatus === status)?._count ?? 0;
  return Object.fromEntries(
    users.map((u) => [u.id, {
      username: u.username, createdAt: u.createdAt, banned: u.bannedAt !== null, games: u._count.games,
      reports: u._count.reportsAbout, held: count(u.id, 'pending'), rejected: count(u.id, 'rejected'),
    }]),
  );
}
