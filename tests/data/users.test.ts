import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { createUser, findOrCreateOAuthUser, getUserById, verifyCredentials } from '@/lib/server/users';
import { resetDb } from '@/tests/data/db';

beforeEach(resetDb);

describe('createUser', () => {
  it('stores an argon2id hash at OWASP parameters, never the password', async () => {
    const result = await createUser({ username: 'Alice_1', password: 'correct horse battery' });
    expect(result.ok).toBe(true);
    const db = await getDb();
    const row = await db.user.findUniqueOrThrow({ where: { usernameKey: 'alice_1' } });
    expect(row.username).toBe('Alice_1');
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.passwordHash).not.toContain('correct horse');
  });

  it('refuses a username that differs only in case', async () => {
    await createUser({ username: 'Alice', password: 'password-one' });
    const again = await createUser({ username: 'aLiCe', password: 'password-two' });
    expect(again).toEqual({ ok: false, error: 'UsernameTaken' });
    const db = await getDb();
    expect(await db.user.count()).toBe(1);
  });

  it('gives one winner when two sign-ups race for the same name', async () => {
    const results = await Promise.all([
      createUser({ username: 'racer', password: 'password-one' }),
      createUser({ username: 'RACER', password: 'password-two' }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: 'UsernameTaken' }]);
  });
});

describe('verifyCredentials', () => {
  beforeEach(async () => {
    await createUser({ username: 'Bob', password: 'hunter2hunter2' });
  });

  it('accepts the right password, whatever the case of the username', async () => {
    const result = await verifyCredentials({ username: 'bOB', password: 'hunter2hunter2' });
    expect(result.ok && result.user.username).toBe('Bob');
  });

  it('tells a wrong password from an unknown user', async () => {
    expect(await verifyCredentials({ username: 'Bob', password: 'hunter2hunter3' })).toEqual({ ok: false, error: 'WrongPassword' });
    expect(await verifyCredentials({ username: 'Nobody', password: 'hunter2hunter2' })).toEqual({ ok: false, error: 'UnknownUser' });
  });

  it('does not truncate long passwords', async () => {
    const long = 'x'.repeat(127) + 'a';
    await createUser({ username: 'long', password: long });
    expect((await verifyCredentials({ username: 'long', password: long })).ok).toBe(true);
    expect((await verifyCredentials({ username: 'long', password: 'x'.repeat(127) + 'b' })).ok).toBe(false);
  });
});

describe('findOrCreateOAuthUser', () => {
  it('creates a player on first sign-in and finds the same one afterwards', async () => {
    const first = await findOrCreateOAuthUser({ provider: 'github', providerAccountId: '42', suggestedName: 'octo cat!' });
    const second = await findOrCreateOAuthUser({ provider: 'github', providerAccountId: '42', suggestedName: 'renamed' });
    expect(second).toEqual(first);
    expect(first.username).toBe('octocat');
    expect(await getUserById({ id: first.id })).toEqual(first);
  });

  it('picks a free username when the profile name is taken', async () => {
    await createUser({ username: 'octocat', password: 'password-one' });
    const user = await findOrCreateOAuthUser({ provider: 'discord', providerAccountId: '7', suggestedName: 'OctoCat' });
    expect(user.username).toBe('OctoCat-2');
  });
});
