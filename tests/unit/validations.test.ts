import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env.js';
import { resolveDbTarget } from '@/lib/db/target.js';
import { signUpSchema, usernameKey } from '@/lib/validations/auth';

describe('signUpSchema', () => {
  it.each(['abc', 'A_b-9', 'twenty_chars_exactly'])('accepts username %s', (username) => {
    expect(signUpSchema.safeParse({ username, password: 'password' }).success).toBe(true);
  });

  it.each(['ab', 'twenty-one-characters', 'has space', 'émile', 'semi;colon', ''])('rejects username %j', (username) => {
    expect(signUpSchema.safeParse({ username, password: 'password' }).success).toBe(false);
  });

  it('rejects passwords under 8 or over 128 characters and keeps every character', () => {
    expect(signUpSchema.safeParse({ username: 'abc', password: '1234567' }).error?.issues[0]?.message).toMatch(/too weak/);
    expect(signUpSchema.safeParse({ username: 'abc', password: 'x'.repeat(129) }).success).toBe(false);
    const padded = '  spaced password  ';
    expect(signUpSchema.parse({ username: 'abc', password: padded }).password).toBe(padded);
  });

  it('makes usernames unique case-insensitively', () => {
    expect(usernameKey(' MiXeD ')).toBe('mixed');
  });
});

describe('environment', () => {
  it('needs nothing in development and generates no secret in production', () => {
    expect(parseEnv({ NODE_ENV: 'development' }).AUTH_SECRET).toMatch(/.{32,}/);
    expect(() => parseEnv({ NODE_ENV: 'production' }, { requireSecret: true })).toThrow(/AUTH_SECRET: required in production/);
  });

  it('names the variable that is wrong', () => {
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: DATABASE_URL must be unset/);
    expect(() => parseEnv({ GITHUB_ID: 'id' })).toThrow(/GITHUB_SECRET: set both GITHUB_ID and GITHUB_SECRET/);
    expect(() => parseEnv({ AUTH_SECRET: 'short' })).toThrow(/AUTH_SECRET: AUTH_SECRET must be at least 32/);
  });

  it('maps DATABASE_URL to a database', () => {
    expect(resolveDbTarget(undefined)).toMatchObject({ kind: 'pglite' });
    expect(resolveDbTarget('pglite:memory')).toEqual({ kind: 'pglite', dataDir: null });
    expect(resolveDbTarget('postgresql://u@h/db')).toEqual({ kind: 'postgres', url: 'postgresql://u@h/db' });
  });
});
