import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { sessionState } from '@/lib/server/account/sessions';
import { listActions } from '@/lib/server/moderation/audit';
import { banPlayer, unbanPlayer } from '@/lib/server/moderation/bans';
import { fileReport, listOpenReports } from '@/lib/server/moderation/reports';
import { setRole } from '@/lib/server/moderation/roles';
import { getBoard } from '@/lib/server/games/boards';
import { approveGame, rejectGame } from '@/lib/server/games/review';
import { roboticGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player } from '@/tests/data/play';

const mod = { id: null, name: 'tester' };
const board = async () => (await getBoard({ mode: 'sprint', period: 'all', limit: 10 })).rows.map((r) => r.gameId);

beforeEach(resetDb);

describe('reports', () => {
  it('one open report per reporter and game; closed by the action taken', async () => {
    const [cheat, witness] = [await player('cheat'), await player('witness')];
    const { ticket } = await playAndSubmit({ owner: cheat });
    const report = { gameId: ticket.gameId, reason: 'cheating' as const, note: 'too fast' };
    expect(await fileReport({ reporterId: witness.userId!, report })).toMatchObject({ ok: true });
    expect(await fileReport({ reporterId: witness.userId!, report })).toMatchObject({ ok: false, code: 'already_reported', status: 409 });
    expect(await fileReport({ reporterId: cheat.userId!, report })).toMatchObject({ ok: false, code: 'own_report' });
    expect(await fileReport({ reporterId: witness.userId!, report: { ...report, gameId: 'nosuchgame' } })).toMatchObject({ ok: false, code: 'not_found' });
    expect(await fileReport({ reporterId: witness.userId!, report: { username: 'CHEAT', reason: 'offensive_name' } })).toMatchObject({ ok: true });
    expect((await listOpenReports({ limit: 10 })).map((r) => [r.reporter, r.target.username, r.gameId])).toEqual([
      ['witness', 'cheat', ticket.gameId],
      ['witness', 'cheat', null],
    ]);

    // Rejecting a game on the boards takes it off them and resolves its reports; the next report is allowed again.
    expect(await board()).toEqual([ticket.gameId]);
    expect(await rejectGame({ gameId: ticket.gameId, note: 'edited replay', actor: mod })).toEqual({ ok: true, status: 'rejected' });
    expect(await board()).toEqual([]);
    expect((await listOpenReports({ limit: 10 })).map((r) => r.gameId)).toEqual([null]);
    expect(await fileReport({ reporterId: witness.userId!, report })).toMatchObject({ ok: true });
    expect((await listActions({ limit: 10 })).map((a) => [a.moderatorName, a.action, a.targetName, a.reason])).toEqual([['tester', 'reject', 'cheat', 'edited replay']]);
  });

  it('rejecting a best puts the next best game back on the board', async () => {
    const p = await player('twice');
    const first = await playAndSubmit({ owner: p, after: 5 });
    const second = await playAndSubmit({ owner: p, issuedAt: minutes(10), after: 5 });
    const best = (await board())[0]!;
    const other = best === first.ticket.gameId ? second.ticket.gameId : first.ticket.gameId;
    await rejectGame({ gameId: best, note: 'x', actor: mod });
    expect(await board()).toEqual([other]);
  });
});

describe('bans', () => {
  it('remove every best, reject held games, spend open tickets, and show the reason; unban restores the boards', async () => {
    const [banned, honest] = [await player('banned'), await player('honest')];
    const game = await playAndSubmit({ owner: banned });
    const kept = await playAndSubmit({ owner: honest });
    const held = await playAndSubmit({ owner: banned, issuedAt: minutes(20), play: roboticGame });
    expect(held.outcome).toMatchObject({ status: 202 });
    const db = await getDb();
    const open = await db.gameTicket.create({ data: { mode: 'sprint', seed: '1', rulesVersion: 1, userId: banned.userId, expiresAt: minutes(999) }, select: { id: true } });
    expect((await board()).sort()).toEqual([game.ticket.gameId, kept.ticket.gameId].sort());

    expect(await banPlayer({ username: 'Banned', reason: 'scripted inputs', actor: mod })).toMatchObject({ ok: true });
    expect(await board()).toEqual([kept.ticket.gameId]);
    expect(await db.personalBest.count({ where: { userId: banned.userId! } })).toBe(0);
    expect(await db.game.findUnique({ where: { id: held.ticket.gameId }, select: { reviewStatus: true } })).toEqual({ reviewStatus: 'rejected' });
    expect((await db.gameTicket.findUnique({ where: { id: open.id }, select: { usedAt: true } }))?.usedAt).not.toBeNull();
    expect(await sessionState({ userId: banned.userId!, fresh: true })).toMatchObject({ banReason: 'scripted inputs' });
    // No path puts a banned player back: approving the held game records no best.
    expect(await approveGame({ gameId: held.ticket.gameId, actor: mod })).toMatchObject({ ok: true });
    expect(await db.personalBest.count({ where: { userId: banned.userId! } })).toBe(0);

    expect(await banPlayer({ username: 'nobody', reason: 'x', actor: mod })).toMatchObject({ ok: false, code: 'not_found' });
    await setRole({ username: 'honest', role: 'moderator', actor: mod });
    expect(await banPlayer({ username: 'honest', reason: 'x', actor: mod })).toMatchObject({ ok: false, code: 'not_allowed' });

    expect(await unbanPlayer({ username: 'banned', reason: 'appeal accepted', actor: mod })).toMatchObject({ ok: true });
    expect((await board()).length).toBe(2);
    expect((await listActions({ limit: 10 })).map((a) => a.action)).toEqual(['unban', 'grant', 'approve', 'ban']);
  });
});
