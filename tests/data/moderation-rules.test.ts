import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { deleteAccount } from '@/lib/server/account/delete';
import { getBoard } from '@/lib/server/games/boards';
import { approveGame, rejectGame } from '@/lib/server/games/review';
import { listActions } from '@/lib/server/moderation/audit';
import { decide } from '@/lib/server/moderation/decide';
import { moderationActionSchema } from '@/lib/validations/moderation';
import type { Actor } from '@/lib/server/moderation/audit';
import { fileReport } from '@/lib/server/moderation/reports';
import { setRole } from '@/lib/server/moderation/roles';
import { CONSOLE } from '@/lib/server/moderation/audit';
import { roboticGame } from '@/tests/support/replays';
import { resetDb } from '@/tests/data/db';
import { minutes, playAndSubmit, player } from '@/tests/data/play';

const board = async () => (await getBoard({ mode: 'sprint', period: 'all', limit: 10 })).rows.map((r) => r.gameId);

/** A signed-up player made a moderator (or admin) from the console; returns them as an actor. */
async function staff(name: string, role: 'moderator' | 'admin' = 'moderator') {
  const owner = await player(name);
  expect(await setRole({ username: name, role, actor: CONSOLE })).toMatchObject({ ok: true });
  return { owner, actor: { id: owner.userId!, name } };
}

/** A decision as the route takes it: through the form's schema. */
const act = (actor: Actor, input: Record<string, string>) => decide({ actor, input: moderationActionSchema.parse(input) });

beforeEach(resetDb);

describe('a held game’s reason is sticky', () => {
  it('an unpaced game can be rejected but never approved, before or after the rejection', async () => {
    const mod = await staff('mod');
    const p = await player('offline');
    const { ticket, outcome } = await playAndSubmit({ owner: p, live: false });
    expect(outcome).toMatchObject({ status: 202, body: { review: { status: 'unpaced', reason: 'not_live' } } });

    expect(await approveGame({ gameId: ticket.gameId, actor: mod.actor })).toMatchObject({ ok: false, code: 'not_approvable' });
    expect(await rejectGame({ gameId: ticket.gameId, note: 'not live', actor: mod.actor })).toEqual({ ok: true, status: 'rejected' });
    expect(await approveGame({ gameId: ticket.gameId, actor: mod.actor })).toMatchObject({ ok: false, code: 'not_approvable' });
    expect(await approveGame({ gameId: ticket.gameId })).toMatchObject({ ok: false, code: 'not_approvable' });

    const db = await getDb();
    expect(await db.game.findUnique({ where: { id: ticket.gameId }, select: { reviewStatus: true, reviewReason: true } })).toEqual({ reviewStatus: 'rejected', reviewReason: 'not_live' });
    expect(await board()).toEqual([]);
    expect((await listActions({ limit: 10 })).map((a) => a.action)).toEqual(['reject', 'grant']);
  });

  it('a timing hold still goes either way, and a rejected game from the boards can come back', async () => {
    const mod = await staff('mod');
    const p = await player('fast');
    const held = await playAndSubmit({ owner: p, play: roboticGame });
    expect(await rejectGame({ gameId: held.ticket.gameId, note: 'looks scripted', actor: mod.actor })).toMatchObject({ ok: true });
    expect(await approveGame({ gameId: held.ticket.gameId, actor: mod.actor })).toEqual({ ok: true, status: 'approved' });
    const honest = await playAndSubmit({ owner: await player('honest'), issuedAt: minutes(10) });
    expect(await rejectGame({ gameId: honest.ticket.gameId, note: 'reported', actor: mod.actor })).toMatchObject({ ok: true });
    expect(await approveGame({ gameId: honest.ticket.gameId, actor: mod.actor })).toEqual({ ok: true, status: 'approved' });
  });
});

describe('nobody reviews their own case', () => {
  it('a moderator cannot approve or reject their own game', async () => {
    const mod = await staff('modplayer');
    const held = await playAndSubmit({ owner: mod.owner, play: roboticGame });
    expect(await approveGame({ gameId: held.ticket.gameId, actor: mod.actor })).toMatchObject({ ok: false, code: 'own_game' });
    expect(await rejectGame({ gameId: held.ticket.gameId, note: 'x', actor: mod.actor })).toMatchObject({ ok: false, code: 'own_game' });
    expect(await act(mod.actor, { action: 'approve', gameId: held.ticket.gameId, reason: '' })).toMatchObject({ ok: false, status: 403, code: 'own_game' });
    // Another moderator may.
    const other = await staff('other');
    expect(await approveGame({ gameId: held.ticket.gameId, actor: other.actor })).toEqual({ ok: true, status: 'approved' });
  });

  it('a moderator cannot dismiss or act on a report about themselves or filed by themselves', async () => {
    const mod = await staff('mod');
    const p = await player('someone');
    const theirs = await playAndSubmit({ owner: p });
    const modsGame = await playAndSubmit({ owner: mod.owner, issuedAt: minutes(10) });
    const about = await fileReport({ reporterId: p.userId!, report: { gameId: modsGame.ticket.gameId, reason: 'cheating' } });
    const byMod = await fileReport({ reporterId: mod.owner.userId!, report: { gameId: theirs.ticket.gameId, reason: 'cheating' } });
    const profile = await fileReport({ reporterId: p.userId!, report: { username: 'mod', reason: 'offensive_name' } });
    if (!about.ok || !byMod.ok || !profile.ok) throw new Error('reports not filed');

    for (const reportId of [about.id, byMod.id, profile.id]) {
      expect(await act(mod.actor, { action: 'dismiss', reportId, reason: 'nothing there' })).toMatchObject({ ok: false, status: 403, code: 'own_report' });
    }
    expect(await act(mod.actor, { action: 'reject', gameId: theirs.ticket.gameId, reportId: byMod.id, reason: 'I saw it' })).toMatchObject({ ok: false, status: 403, code: 'own_report' });
    expect(await board()).toHaveLength(2);
    const db = await getDb();
    expect(await db.report.count({ where: { status: 'open' } })).toBe(3);

    // Another moderator can act on all three.
    const other = await staff('other');
    expect(await act(other.actor, { action: 'dismiss', reportId: profile.id, reason: 'a fine name' })).toEqual({ ok: true, action: 'dismiss' });
    expect(await act(other.actor, { action: 'reject', gameId: theirs.ticket.gameId, reportId: byMod.id, reason: 'confirmed' })).toEqual({ ok: true, action: 'reject' });
  });
});

describe('the audit log is the site’s record', () => {
  it('keeps the staff member’s name (and the target’s) after their account is deleted', async () => {
    const mod = await staff('departing');
    const p = await player('target');
    const held = await playAndSubmit({ owner: p, play: roboticGame });
    expect(await rejectGame({ gameId: held.ticket.gameId, note: 'scripted', actor: mod.actor })).toMatchObject({ ok: true });
    expect(await deleteAccount({ userId: mod.owner.userId! })).toEqual({ ok: true });
    expect(await deleteAccount({ userId: p.userId! })).toEqual({ ok: true });
    const log = (await listActions({ limit: 10 })).map((a) => [a.moderatorName, a.action, a.targetName]);
    expect(log).toEqual([
      ['departing', 'reject', 'target'],
      ['console', 'grant', 'departing'],
    ]);
  });
});

describe('roles on the site', () => {
  it('an admin grants and revokes, each logged; the last admin cannot step down', async () => {
    const admin = await staff('boss', 'admin');
    await player('helper');
    expect(await setRole({ username: 'helper', role: 'moderator', actor: admin.actor })).toEqual({ ok: true });
    expect(await setRole({ username: 'helper', role: 'moderator', actor: admin.actor })).toMatchObject({ ok: false, code: 'unchanged' });
    expect(await setRole({ username: 'helper', role: 'player', actor: admin.actor })).toEqual({ ok: true });
    expect(await setRole({ username: 'nobody', role: 'player', actor: admin.actor })).toMatchObject({ ok: false, code: 'not_found' });

    expect(await setRole({ username: 'boss', role: 'moderator', actor: admin.actor })).toMatchObject({ ok: false, code: 'last_admin' });
    expect(await setRole({ username: 'boss', role: 'player', actor: CONSOLE })).toMatchObject({ ok: false, code: 'last_admin' });
    expect(await setRole({ username: 'helper', role: 'admin', actor: admin.actor })).toEqual({ ok: true });
    expect(await setRole({ username: 'boss', role: 'player', actor: admin.actor })).toEqual({ ok: true });

    const log = (await listActions({ limit: 10 })).map((a) => [a.moderatorName, a.action, a.targetName, a.reason]);
    expect(log).toEqual([
      ['boss', 'revoke', 'boss', 'role set to player'],
      ['boss', 'grant', 'helper', 'role set to admin'],
      ['boss', 'revoke', 'helper', 'role set to player'],
      ['boss', 'grant', 'helper', 'role set to moderator'],
      ['console', 'grant', 'boss', 'role set to admin'],
    ]);
  });

  it('two admins demoting each other at once leave one admin', async () => {
    const a = await staff('alpha', 'admin');
    const b = await staff('beta', 'admin');
    const outcomes = await Promise.all([
      setRole({ username: 'beta', role: 'player', actor: a.actor }),
      setRole({ username: 'alpha', role: 'player', actor: b.actor }),
    ]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    const db = await getDb();
    expect(await db.user.count({ where: { role: 'admin' } })).toBe(1);
  });

  it('a banned player gets no role', async () => {
    const admin = await staff('boss', 'admin');
    await player('banned');
    expect(await act(admin.actor, { action: 'ban', username: 'banned', reason: 'cheating' })).toMatchObject({ ok: true });
    expect(await setRole({ username: 'banned', role: 'moderator', actor: admin.actor })).toMatchObject({ ok: false, code: 'banned' });
  });
});
