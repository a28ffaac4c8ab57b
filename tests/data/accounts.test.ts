import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { changePassword, reauthenticate } from '@/lib/server/account/password';
import { countRecoveryCodes, recoverWithCode, regenerateRecoveryCodes } from '@/lib/server/account/recovery';
import { createEmailToken, createResetToken, RESET_TTL_MS, resetPassword, verifyEmail } from '@/lib/server/account/links';
import { sessionState } from '@/lib/server/account/sessions';
import { changeUsername, renamedTo } from '@/lib/server/account/username';
import { bumpSessionVersion } from '@/lib/server/account/sessions';
import { createUser, getUserByUsername, verifyCredentials } from '@/lib/server/users';
import { resetDb } from '@/tests/data/db';
import { player, T0, minutes } from '@/tests/data/play';

const DAY = 86_400_000;
const signsIn = async (username: string, password: string) => (await verifyCredentials({ username, password })).ok;
const versionOf = async (userId: string) => (await sessionState({ userId, fresh: true }))?.version;

beforeEach(resetDb);

describe('changing the password', () => {
  it('needs the current password, goes through the policy, and signs out every other session', async () => {
    const { userId } = await player('changer');
    expect(await changePassword({ userId: userId!, current: 'wrong-password', next: 'a-new-secret-9', signedInAt: null })).toMatchObject({ ok: false, code: 'wrong_password' });
    expect(await changePassword({ userId: userId!, current: 'password-123', next: 'short', signedInAt: null })).toMatchObject({ ok: false, code: 'weak_password' });
    expect(await changePassword({ userId: userId!, current: 'password-123', next: 'changer-is-me', signedInAt: null })).toMatchObject({ ok: false, code: 'weak_password' });
    expect(await versionOf(userId!)).toBe(0);
    expect(await changePassword({ userId: userId!, current: 'password-123', next: 'a-new-secret-9', signedInAt: null })).toEqual({ ok: true, sessionVersion: 1 });
    expect(await versionOf(userId!)).toBe(1);
    expect(await signsIn('changer', 'password-123')).toBe(false);
    expect(await signsIn('changer', 'a-new-secret-9')).toBe(true);
    expect(await reauthenticate({ userId: userId!, password: 'a-new-secret-9', signedInAt: null })).toEqual({ ok: true });
  });

  it('"sign out everywhere" moves the session version on', async () => {
    const { userId } = await player('everywhere');
    const db = await getDb();
    expect(await bumpSessionVersion(db, userId!)).toBe(1);
    expect(await bumpSessionVersion(db, userId!)).toBe(2);
    expect(await versionOf(userId!)).toBe(2);
  });
});

describe('changing the username', () => {
  it('keeps the sign-up rules, once per 30 days, and the old name redirects for 90 days', async () => {
    const { userId } = await player('oldname');
    await player('taken');
    expect(await changeUsername({ userId: userId!, username: 'TAKEN', now: T0 })).toMatchObject({ ok: false, code: 'username_taken' });
    expect(await changeUsername({ userId: userId!, username: 'newname', now: T0 })).toEqual({ ok: true, username: 'newname' });
    expect(await signsIn('newname', 'password-123')).toBe(true);
    expect(await signsIn('oldname', 'password-123')).toBe(false);
    expect(await getUserByUsername({ username: 'oldname' })).toBeNull();
    expect(await renamedTo({ username: 'OldName', now: minutes(60) })).toBe('newname');
    expect(await renamedTo({ username: 'oldname', now: new Date(T0.getTime() + 91 * DAY) })).toBeNull();
    // Nobody else can take the old name while it redirects.
    expect(await createUser({ username: 'oldname', password: 'password-456' })).toEqual({ ok: false, error: 'UsernameTaken' });
    // The next rename waits 30 days; fixing the case does not.
    expect(await changeUsername({ userId: userId!, username: 'third', now: new Date(T0.getTime() + 29 * DAY) })).toMatchObject({ ok: false, code: 'rename_too_soon' });
    expect(await changeUsername({ userId: userId!, username: 'NewName', now: new Date(T0.getTime() + 29 * DAY) })).toEqual({ ok: true, username: 'NewName' });
    expect(await changeUsername({ userId: userId!, username: 'third', now: new Date(T0.getTime() + 31 * DAY) })).toEqual({ ok: true, username: 'third' });
    // Taking one's own old name back is allowed.
    expect(await changeUsername({ userId: userId!, username: 'oldname', now: new Date(T0.getTime() + 62 * DAY) })).toEqual({ ok: true, username: 'oldname' });
    expect(await renamedTo({ username: 'oldname', now: new Date(T0.getTime() + 62 * DAY) })).toBeNull();
  });
});

describe('password reset by email', () => {
  async function withEmail(name: string, email: string) {
    const { userId } = await player(name);
    const token = await createEmailToken({ userId: userId!, email, now: T0 });
    expect(await verifyEmail({ token, now: minutes(1) })).toEqual({ ok: true, email: email.toLowerCase() });
    expect(await verifyEmail({ token, now: minutes(2) })).toMatchObject({ ok: false, code: 'link_invalid' });
    return userId!;
  }

  it('only for a verified address; the token works once, before it expires, and is stored hashed', async () => {
    const userId = await withEmail('resetter', 'Resetter@Example.org');
    // An unverified address gets no token (and the caller answers the same).
    const other = await player('unverified');
    await createEmailToken({ userId: other.userId!, email: 'nobody@example.org', now: T0 });
    expect(await createResetToken({ email: 'nobody@example.org', now: T0 })).toBeNull();
    expect(await createResetToken({ email: 'unknown@example.org', now: T0 })).toBeNull();

    const issued = await createResetToken({ email: 'resetter@example.org', now: T0 });
    expect(issued).toMatchObject({ username: 'resetter', email: 'resetter@example.org' });
    const db = await getDb();
    const stored = await db.accountToken.findMany({ where: { userId, purpose: 'reset' }, select: { tokenHash: true } });
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(issued!.token);

    expect(await resetPassword({ token: issued!.token, password: 'weak', now: minutes(5) })).toMatchObject({ ok: false, code: 'weak_password' });
    expect(await resetPassword({ token: issued!.token, password: 'brand-new-pass-1', now: minutes(5) })).toEqual({ ok: true, sessionVersion: 1 });
    expect(await signsIn('resetter', 'brand-new-pass-1')).toBe(true);
    expect(await resetPassword({ token: issued!.token, password: 'another-pass-22', now: minutes(6) })).toMatchObject({ ok: false, code: 'recovery_failed' });
    expect(await signsIn('resetter', 'brand-new-pass-1')).toBe(true);
  });

  it('refuses an expired token and an older one once a newer was sent', async () => {
    await withEmail('expiry', 'expiry@example.org');
    const first = await createResetToken({ email: 'expiry@example.org', now: T0 });
    const second = await createResetToken({ email: 'expiry@example.org', now: minutes(1) });
    expect(await resetPassword({ token: first!.token, password: 'brand-new-pass-1', now: minutes(2) })).toMatchObject({ ok: false, code: 'recovery_failed' });
    const late = new Date(minutes(1).getTime() + RESET_TTL_MS + 1000);
    expect(await resetPassword({ token: second!.token, password: 'brand-new-pass-1', now: late })).toMatchObject({ ok: false, code: 'recovery_failed' });
    expect(await signsIn('expiry', 'password-123')).toBe(true);
  });

  it('one address confirms one account', async () => {
    await withEmail('first', 'shared@example.org');
    const { userId } = await player('second');
    const token = await createEmailToken({ userId: userId!, email: 'SHARED@example.org', now: T0 });
    expect(await verifyEmail({ token, now: minutes(1) })).toMatchObject({ ok: false, code: 'email_taken' });
  });
});

describe('recovery codes', () => {
  it('each works once, are stored hashed, and regenerating replaces them', async () => {
    const { userId } = await player('coder');
    const codes = await regenerateRecoveryCodes({ userId: userId! });
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const db = await getDb();
    const hashes = (await db.recoveryCode.findMany({ where: { userId: userId! }, select: { codeHash: true } })).map((r) => r.codeHash);
    for (const code of codes) expect(hashes.join()).not.toContain(code);

    expect(await recoverWithCode({ username: 'coder', code: 'aaaa-bbbb-cccc', password: 'recovered-pass-1' })).toMatchObject({ ok: false, code: 'recovery_failed' });
    expect(await recoverWithCode({ username: 'nobody', code: codes[0]!, password: 'recovered-pass-1' })).toMatchObject({ ok: false, code: 'recovery_failed' });
    // A refused password leaves the code unspent.
    expect(await recoverWithCode({ username: 'coder', code: codes[0]!, password: 'short' })).toMatchObject({ ok: false, code: 'weak_password' });
    expect(await countRecoveryCodes({ userId: userId! })).toBe(10);
    // Typed in capitals with spaces for dashes still works.
    const typed = codes[0]!.toUpperCase().replace(/-/g, ' ');
    expect(await recoverWithCode({ username: 'Coder', code: typed, password: 'recovered-pass-1' })).toEqual({ ok: true, sessionVersion: 1 });
    expect(await signsIn('coder', 'recovered-pass-1')).toBe(true);
    expect(await recoverWithCode({ username: 'coder', code: codes[0]!, password: 'recovered-pass-2' })).toMatchObject({ ok: false, code: 'recovery_failed' });
    expect(await countRecoveryCodes({ userId: userId! })).toBe(9);

    const fresh = await regenerateRecoveryCodes({ userId: userId! });
    expect(await recoverWithCode({ username: 'coder', code: codes[1]!, password: 'recovered-pass-2' })).toMatchObject({ ok: false, code: 'recovery_failed' });
    expect(await recoverWithCode({ username: 'coder', code: fresh[0]!, password: 'recovered-pass-2' })).toMatchObject({ ok: true });
  });
});
