import { describe, expect, it } from 'vitest';
import { passwordProblem } from '@/lib/server/password-policy';
import { passwordSchema } from '@/lib/validations/auth';

describe('passwords are measured in characters, not UTF-16 units', () => {
  it('refuses four emoji (eight UTF-16 units) as too short, accepts eight', () => {
    expect(passwordSchema.safeParse('🐉🎲🧩🚀').error?.issues[0]?.message).toMatch(/at least 8 characters/);
    expect(passwordSchema.safeParse('🐉🎲🧩🚀🌵🎹🪁🦉').success).toBe(true);
  });

  it('allows 128 characters of any kind, refuses 129', () => {
    expect(passwordSchema.safeParse('🐉'.repeat(128)).success).toBe(true);
    expect(passwordSchema.safeParse('🐉'.repeat(129)).success).toBe(false);
  });

  it('sees one repeated character even outside the Basic Multilingual Plane', () => {
    expect(passwordProblem('🐉'.repeat(10), 'someone')).toMatch(/repeated/);
  });
});
