import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { deleteAccount } from '@/lib/server/account/delete';
import { EXPORT_SECTIONS, exportAccount } from '@/lib/server/account/export';
import { createEmailToken, verifyEmail } from '@/lib/server/account/links';
import { regenerateRecoveryCodes } from '@/lib/server/account/recovery';
import { changeUsername } from '@/lib/server/account/username';
import { saveSettings } from '@/lib/server/settings';
import { defaultSettings } from '@/lib/validations/settings';
import { hit } from '@/lib/server/limits/limiter';
import { countSignInAttempt } from '@/lib/server/limits/sign-in-count';
import { logAction } from '@/lib/server/moderation/audit';
import { fileReport } from '@/lib/server/moderation/reports';
import { getBoard } from '@/lib/server/games/boards';
import { issueTicket } from '@/lib/server/games/tickets';
import { VersusMatch } from '@/lib/engine';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf } from '@/lib/server/versus/verify';
import { resetDb } from '@/tests/data/db';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';
import { playAndSubmit, player, T0 } from '@/tests/data/play';

beforeEach(resetDb);

/** Every row of every table (but the migration history), as text. */
async function everyRow(): Promise<string[]> {
  const db = await getDb();
  const tables = await db.$queryRawUnsafe<{ tablename: string }[]>(
    `SELECT tablename::text AS tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`,
  );
  const rows: string[] = [];
  for (const { tablename } of tables) {
    const found = await db.$queryRawUnsafe<{ row: string }[]>(`SELECT t::text AS row FROM "${tablename}" t`);
    rows.push(...found.map((r) => `${tablename}: ${r.row}`));
  }
  return rows;
}

describe('deleting an account', () => {
  it('leaves nothing personal in any table, takes its games off every board, and spares other players', async () => {
    const gone = await player('leaver');
    const stays = await player('stayer');
    const userId = gone.userId!;
    // Give the account data in every place a player's data can be.
    const { ticket } = await playAndSubmit({ owner: gone });
    const theirs = await playAndSubmit({ owner: stays });
    await issueTicket({ mode: 'ultra', owner: gone, now: T0 });
    await playAndSubmit({ owner: gone, mode: 'marathon', tamper: (s) => void (s.claimed.score += 1) });
    await saveSettings({ userId, settings: defaultSettings() });
    await regenerateRecoveryCodes({ userId });
    await verifyEmail({ token: await createEmailToken({ userId, email: 'leaver@example.org', now: T0 }), now: T0 });
    await changeUsername({ userId, username: 'leaver2', now: T0 });
    await fileReport({ reporterId: userId, report: { gameId: theirs.ticket.gameId, reason: 'cheating', note: 'leaver says so' } });
    await fileReport({ reporterId: stays.userId!, report: { gameId: ticket.gameId, reason: 'cheating' } });
    await hit([{ rule: 'ticketPlayer', subject: userId }]);
    await countSignInAttempt({ account: 'leaver2', address: '10.0.0.9', trusted: false });
    const match = new VersusMatch({ mode: 'battle', seed: 'shared-seed', handling: [HANDLING, HANDLING] });
    playMatch(match, [new VersusBot({ seed: 'seat/a', mistakes: 0.1 }), new VersusBot({ seed: 'seat/b', mistakes: 0.2, pace: 4 })]);
    expect(await storeMatch({ matchId: 'shared-match', record: recordOf(match, 'shared-seed', 'battle'), seats: [gone, stays], ranked: true, now: T0 })).toMatchObject({ ok: true });
    const db = await getDb();
    await logAction(db, { actor: { id: userId, name: 'leaver2' }, action: 'dismiss', targetId: stays.userId, reason: 'as a moderator', now: T0 });
    await logAction(db, { actor: { id: null, name: 'console' }, action: 'ban', targetId: userId, reason: 'test entry', now: T0 });

    const exported = await exportAccount({ userId });
    expect(Object.keys(exported)).toEqual(expect.arrayContaining([...EXPORT_SECTIONS]));
    expect(exported.profile).toMatchObject({ username: 'leaver2', email: 'leaver@example.org' });
    expect(exported.games.map((g) => g.id)).toContain(ticket.gameId);
    expect(exported.games[0]?.replay.length).toBeGreaterThan(10);
    expect(exported.reportsFiled).toHaveLength(1);
    expect(exported.versusMatches.map((m) => m.match.id)).toEqual(['shared-match']);
    expect(exported.versusRatings).toHaveLength(1);

    const personal = [userId, 'leaver', 'leaver@example.org', ticket.gameId];
    const before = (await everyRow()).filter((row) => personal.some((p) => row.toLowerCase().includes(p)));
    expect(before.length).toBeGreaterThan(10);

    expect(await deleteAccount({ userId })).toEqual({ ok: true });
    // The audit log is the site's record and keeps the names it wrote (docs/decisions/0013); no id.
    const left = (await everyRow()).filter((row) => personal.some((p) => row.toLowerCase().includes(p)));
    expect(left.filter((row) => !row.startsWith('ModerationAction: '))).toEqual([]);
    expect(left.filter((row) => row.includes(userId))).toEqual([]);
    expect((await getBoard({ mode: 'sprint', period: 'all', limit: 10 })).rows.map((r) => r.gameId)).toEqual([theirs.ticket.gameId]);
    // The audit log keeps what was done and the names of who did it and to whom, not their ids.
    const log = await db.moderationAction.findMany({ select: { moderatorId: true, moderatorName: true, targetId: true, targetName: true, reason: true } });
    expect(log).toEqual(expect.arrayContaining([
      { moderatorId: null, moderatorName: 'leaver2', targetId: stays.userId, targetName: 'stayer', reason: 'as a moderator' },
      { moderatorId: null, moderatorName: 'console', targetId: null, targetName: 'leaver2', reason: 'test entry' },
    ]));
    expect(await db.user.count()).toBe(1);
    // The opponent keeps the match in their history; the leaver's seat and rating are gone.
    expect(await db.versusSeat.findMany({ where: { matchId: 'shared-match' }, select: { userId: true } })).toEqual([{ userId: stays.userId }]);
    expect(await db.versusRating.count({ where: { userId: stays.userId! } })).toBe(1);
    expect(await deleteAccount({ userId })).toEqual({ ok: false });
  });
});
