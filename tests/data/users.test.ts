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
    // The OAuth answer also carries the session version the new session starts at.
    expect(await getUserById({ id: first.id })).toEqual({ id: first.id, username: first.username });
  });

  it('picks a free username when the profile name is taken', async () => {
    await createUser({ username: 'octocat', password: 'password-one' });
    const user = await findOrCreateOAuthUser({ provider: 'discord', providerAccountId: '7', suggestedName: 'OctoCat' });
    expect(user.username).toBe('OctoCat-2');
  });
});

describe('sign-in answers the same for an unknown name and a wrong password', () => {
  it('gives one generic error for both, so names cannot be probed', async () => {
    await createUser({ username: 'Dora', password: 'correct horse battery' });
    const wrong = await verifyCredentials({ username: 'Dora', password: 'incorrect horse' });
    const unknown = await verifyCredentials({ username: 'Nobody-here', password: 'incorrect horse' });
    expect(wrong).toEqual({ ok: false, error: 'CredentialsInvalid' });
    expect(unknown).toEqual(wrong);
  });
});

describe('passwords are compared in Unicode normal form (NFKC)', () => {
  const composed = 'caf\u00e9 au lait 42';
  const decomposed = 'cafe\u0301 au lait 42';

  it('matches é typed either way', async () => {
    await createUser({ username: 'Eve', password: composed });
    expect((await verifyCredentials({ username: 'Eve', password: decomposed })).ok).toBe(true);
    expect((await verifyCredentials({ username: 'Eve', password: composed })).ok).toBe(true);
  });

  it('still verifies a hash made before normalisation, and rehashes it in normal form on success', async () => {
    const { hash } = await import('@node-rs/argon2');
    const db = await getDb();
    // An account from before normalisation: its hash is of the text exactly as typed.
    await createUser({ username: 'Old', password: 'placeholder-password-1' });
    const legacy = await hash(decomposed, { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    await db.user.update({ where: { usernameKey: 'old' }, data: { passwordHash: legacy } });

    expect((await verifyCredentials({ username: 'Old', password: decomposed })).ok).toBe(true);
    const rehashed = (await db.user.findUniqueOrThrow({ where: { usernameKey: 'old' } })).passwordHash;
    expect(rehashed).not.toBe(legacy);
    // Now either spelling matches, as for any new account.
    expect((await verifyCredentials({ username: 'Old', password: composed })).ok).toBe(true);
  });
});
