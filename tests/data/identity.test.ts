import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '@/lib/server/db';
import { deleteAccount } from '@/lib/server/account/delete';
import { createEmailToken, createResetToken, resetPassword, verifyEmail } from '@/lib/server/account/links';
import { mailVerificationLink } from '@/lib/server/account/mails';
import { changePassword } from '@/lib/server/account/password';
import { recoverWithCode, regenerateRecoveryCodes } from '@/lib/server/account/recovery';
import { bumpSessionVersion, onSessionStateForgotten } from '@/lib/server/account/sessions';
import { changeUsername } from '@/lib/server/account/username';
import { CONSOLE } from '@/lib/server/moderation/audit';
import { banPlayer, unbanPlayer } from '@/lib/server/moderation/bans';
import { setRole } from '@/lib/server/moderation/roles';
import { createUser, findOrCreateOAuthUser, oauthIdentityBanned } from '@/lib/server/users';
import { getRatingBoard, getWeeklyWinsBoard } from '@/lib/server/versus/boards';
import { resetDb } from '@/tests/data/db';
import { minutes, player, T0 } from '@/tests/data/play';

let forgotten: string[] = [];
let stop: () => void = () => {};

beforeEach(async () => {
  await resetDb();
  forgotten = [];
  stop = onSessionStateForgotten((userId) => forgotten.push(userId));
});
afterEach(() => stop());

/** The ids told since the last call, once each. */
const told = () => {
  const seen = [...new Set(forgotten)];
  forgotten = [];
  return seen;
};

describe('every identity change is told to the listeners (the live hub closes those sockets)', () => {
  it('ban, unban, sign out everywhere, password change, reset and recovery, role change, rename, deletion', async () => {
    const { userId } = await player('watched');
    const id = userId!;
    const db = await getDb();
    told();

    expect(await banPlayer({ username: 'watched', reason: 'x', actor: CONSOLE })).toMatchObject({ ok: true });
    expect(told()).toEqual([id]);
    expect(await unbanPlayer({ username: 'watched', reason: 'appeal', actor: CONSOLE })).toMatchObject({ ok: true });
    expect(told()).toEqual([id]);
    await bumpSessionVersion(db, id);
    expect(told()).toEqual([id]);

    expect(await changePassword({ userId: id, current: 'wrong-password', next: 'a-new-secret-9', signedInAt: null })).toMatchObject({ ok: false });
    expect(told()).toEqual([]);
    expect(await changePassword({ userId: id, current: 'password-123', next: 'a-new-secret-9', signedInAt: null })).toMatchObject({ ok: true });
    expect(told()).toEqual([id]);

    await db.user.update({ where: { id }, data: { email: 'watched@example.org', emailVerifiedAt: T0 } });
    const reset = await createResetToken({ email: 'watched@example.org', now: T0 });
    expect(await resetPassword({ token: reset!.token, password: 'another-secret-8', now: minutes(1) })).toMatchObject({ ok: true });
    expect(told()).toEqual([id]);
    const [code] = await regenerateRecoveryCodes({ userId: id });
    expect(await recoverWithCode({ username: 'watched', code: code!, password: 'a-third-secret-7' })).toMatchObject({ ok: true });
    expect(told()).toEqual([id]);

    expect(await setRole({ username: 'watched', role: 'moderator', actor: CONSOLE })).toEqual({ ok: true });
    expect(told()).toEqual([id]);
    expect(await changeUsername({ userId: id, username: 'renamed', now: T0 })).toMatchObject({ ok: true });
    expect(told()).toEqual([id]);
    expect(await deleteAccount({ userId: id })).toEqual({ ok: true });
    expect(told()).toEqual([id]);
  });

  it('a listener that throws does not undo the change or stop the others', async () => {
    const { userId } = await player('sturdy');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stopBad = onSessionStateForgotten(() => {
      throw new Error('listener broke');
    });
    try {
      expect(await banPlayer({ username: 'sturdy', reason: 'x', actor: CONSOLE })).toMatchObject({ ok: true });
      expect(logged).toHaveBeenCalledTimes(1);
    } finally {
      stopBad();
      logged.mockRestore();
    }
    expect(told()).toEqual([userId]);
    const db = await getDb();
    expect((await db.user.findUnique({ where: { id: userId! }, select: { bannedAt: true } }))?.bannedAt).not.toBeNull();
  });
});

describe('a ban outlives the account’s deletion', () => {
  it('the name, its old names, its confirmed e-mail and its OAuth logins cannot come back; a player in good standing leaves nothing', async () => {
    const { userId } = await player('cheater');
    const db = await getDb();
    await verifyEmail({ token: await createEmailToken({ userId: userId!, email: 'Cheater@Example.org', now: T0 }), now: T0 });
    expect(await changeUsername({ userId: userId!, username: 'cheater2', now: T0 })).toMatchObject({ ok: true });
    expect(await banPlayer({ username: 'cheater2', reason: 'scripted inputs', actor: CONSOLE })).toMatchObject({ ok: true });
    expect(await deleteAccount({ userId: userId! })).toEqual({ ok: true });

    // Only the address's hash is kept.
    expect(JSON.stringify(await db.tombstone.findMany())).not.toContain('example.org');
    for (const name of ['cheater2', 'CHEATER2', 'cheater']) {
      expect(await createUser({ username: name, password: 'password-456' })).toEqual({ ok: false, error: 'UsernameBanned' });
    }
    const other = await player('someone');
    expect(await changeUsername({ userId: other.userId!, username: 'Cheater2', now: T0 })).toMatchObject({ ok: false, code: 'username_banned' });
    expect(await mailVerificationLink({ userId: other.userId!, username: 'someone', email: 'cheater@example.org ' })).toMatchObject({ ok: false, code: 'email_banned' });
    // A link asked for before the ban's deletion is refused when followed.
    const token = await createEmailToken({ userId: other.userId!, email: 'CHEATER@example.org', now: T0 });
    expect(await verifyEmail({ token, now: T0 })).toMatchObject({ ok: false, code: 'email_banned' });
    // An OAuth sign-up whose profile suggests the name gets another one.
    expect((await findOrCreateOAuthUser({ provider: 'github', providerAccountId: '1', suggestedName: 'cheater2' })).username).toBe('cheater2-2');

    // A banned OAuth account's login, once the account is deleted, makes no new one.
    const octo = await findOrCreateOAuthUser({ provider: 'github', providerAccountId: '4242', suggestedName: 'octo' });
    expect(await banPlayer({ username: octo.username, reason: 'bot', actor: CONSOLE })).toMatchObject({ ok: true });
    expect(await oauthIdentityBanned({ provider: 'github', providerAccountId: '4242' })).toBe(false);
    expect(await deleteAccount({ userId: octo.id })).toEqual({ ok: true });
    expect(await oauthIdentityBanned({ provider: 'github', providerAccountId: '4242' })).toBe(true);
    expect(await oauthIdentityBanned({ provider: 'discord', providerAccountId: '4242' })).toBe(false);

    // Deleting an account in good standing frees its name as before.
    const fine = await player('fine');
    expect(await deleteAccount({ userId: fine.userId! })).toEqual({ ok: true });
    expect(await createUser({ username: 'fine', password: 'password-456' })).toMatchObject({ ok: true });
  });
});

describe('banned players are off the versus boards', () => {
  it('rating board and weekly wins: their rows go, the others’ ranks close up, a banned viewer has no row', async () => {
    const db = await getDb();
    const ids: Record<string, string> = {};
    for (const [name, rating] of [['ann', 1900], ['ben', 1800], ['cat', 1700]] as const) {
      ids[name] = (await player(name)).userId!;
      await db.versusRating.create({ data: { userId: ids[name], mode: 'battle', rating, rd: 60, vol: 0.06, matches: 20, wins: 10, updatedAt: T0, ratedAt: T0 } });
      await db.versusWeeklyWins.create({ data: { userId: ids[name], mode: 'battle', week: '2026-W47', wins: rating / 100, lastWinAt: T0 } });
    }
    expect(await banPlayer({ username: 'ann', reason: 'win trading', actor: CONSOLE })).toMatchObject({ ok: true });

    const rating = await getRatingBoard({ mode: 'battle', limit: 10, viewerId: ids.cat, now: T0 });
    expect(rating.rows.map((r) => [r.rank, r.player.username])).toEqual([[1, 'ben'], [2, 'cat']]);
    expect(rating.me).toMatchObject({ rank: 2 });
    expect((await getRatingBoard({ mode: 'battle', limit: 10, viewerId: ids.ann, now: T0 })).me).toBeNull();

    const wins = await getWeeklyWinsBoard({ mode: 'battle', limit: 10, viewerId: ids.cat, now: T0 });
    expect(wins.rows.map((r) => [r.rank, r.player.username])).toEqual([[1, 'ben'], [2, 'cat']]);
    expect(wins.me).toMatchObject({ rank: 2 });
    expect((await getWeeklyWinsBoard({ mode: 'battle', limit: 10, viewerId: ids.ann, now: T0 })).me).toBeNull();

    expect(await unbanPlayer({ username: 'ann', reason: 'appeal', actor: CONSOLE })).toMatchObject({ ok: true });
    expect((await getRatingBoard({ mode: 'battle', limit: 10, now: T0 })).rows.map((r) => r.player.username)).toEqual(['ann', 'ben', 'cat']);
  });
});
