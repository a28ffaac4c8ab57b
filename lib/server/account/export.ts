import 'server-only';
import { getDb, type Db } from '@/lib/server/db';

/**
 * Everything stored about a player, section by section. A new table that holds a player's data
 * (versus matches, say) is one more entry here; the deletion test's table scan finds one that is
 * missing from deletion, and the export test checks each section is there.
 */
const SECTIONS = {
  profile: (db, userId) =>
    db.user.findUnique({
      where: { id: userId },
      select: { id: true, username: true, email: true, emailVerifiedAt: true, role: true, createdAt: true, usernameChangedAt: true, bannedAt: true, banReason: true },
    }),
  settings: async (db, userId) => (await db.user.findUnique({ where: { id: userId }, select: { settings: true } }))?.settings ?? null,
  linkedAccounts: (db, userId) => db.account.findMany({ where: { userId }, select: { provider: true, providerAccountId: true, createdAt: true } }),
  games: (db, userId) =>
    db.game.findMany({
      where: { userId },
      orderBy: { createdAt: 'asc' },
      select: {
        id: true, mode: true, score: true, lines: true, level: true, ticks: true, pieces: true, keys: true, pps: true, kpp: true, finesseFaults: true,
        finished: true, toppedOut: true, rulesVersion: true, createdAt: true, reviewStatus: true, reviewReason: true, reviewMessage: true,
        reviewNote: true, replay: true,
      },
    }),
  personalBests: (db, userId) => db.personalBest.findMany({ where: { userId }, select: { mode: true, period: true, gameId: true, metric: true, achievedAt: true } }),
  forfeitedGames: (db, userId) => db.abandonCount.findMany({ where: { userId }, select: { mode: true, count: true } }),
  refusedSubmissions: (db, userId) => db.rejectedSubmission.findMany({ where: { userId }, select: { ticketId: true, code: true, message: true, createdAt: true } }),
  versusMatches: (db, userId) =>
    db.versusSeat.findMany({
      where: { userId },
      orderBy: { createdAt: 'asc' },
      select: {
        seat: true, gamesWon: true, won: true, ratingBefore: true, rdBefore: true, ratingAfter: true, rdAfter: true, matchesBefore: true, createdAt: true,
        match: { select: { id: true, mode: true, ranked: true, firstTo: true, winnerSeat: true, endReason: true, games: { select: { index: true, winnerSeat: true, reason: true, endTick: true, replay0: true, replay1: true } } } },
      },
    }),
  versusRatings: (db, userId) => db.versusRating.findMany({ where: { userId }, select: { mode: true, rating: true, rd: true, vol: true, matches: true, wins: true, updatedAt: true, ratedAt: true } }),
  versusWeeklyWins: (db, userId) => db.versusWeeklyWins.findMany({ where: { userId }, select: { mode: true, week: true, wins: true } }),
  reportsFiled: (db, userId) => db.report.findMany({ where: { reporterId: userId }, select: { gameId: true, reason: true, note: true, status: true, createdAt: true } }),
  usernameRedirects: (db, userId) => db.usernameRedirect.findMany({ where: { userId }, select: { oldKey: true, expiresAt: true } }),
  recoveryCodes: async (db, userId) => ({ unused: await db.recoveryCode.count({ where: { userId, usedAt: null } }), note: 'Only hashes are stored; the codes themselves cannot be shown again.' }),
} satisfies Record<string, (db: Db, userId: string) => Promise<unknown>>;

export type AccountExport = { exportedAt: string; format: 'linefall-account-export/1' } & { [K in keyof typeof SECTIONS]: Awaited<ReturnType<(typeof SECTIONS)[K]>> };

export const EXPORT_SECTIONS = Object.keys(SECTIONS) as (keyof typeof SECTIONS)[];

export async function exportAccount(options: { userId: string; now?: Date }): Promise<AccountExport> {
  const db = await getDb();
  const entries = await Promise.all(EXPORT_SECTIONS.map(async (name) => [name, await SECTIONS[name](db, options.userId)] as const));
  return { format: 'linefall-account-export/1', exportedAt: (options.now ?? new Date()).toISOString(), ...Object.fromEntries(entries) } as AccountExport;
}
