import { describe, expect, it } from 'vitest';
import { passwordProblem } from '@/lib/server/password-policy';

describe('password policy', () => {
  it('refuses the most common passwords from the maintained list, in any case', () => {
    for (const password of ['password', '12345678', 'qwertyuiop', 'iloveyou', 'PASSWORD1', 'baseball']) {
      expect(passwordProblem(password, 'someone'), password).toMatch(/most common/);
    }
  });
  it('refuses passwords built from the username or the site', () => {
    expect(passwordProblem('xX-tetrisgod-Xx', 'TetrisGod')).toMatch(/username/);
    expect(passwordProblem('mylinefall2026', 'someone')).toMatch(/site/);
    expect(passwordProblem('zzzzzzzzzzzz', 'someone')).toMatch(/repeated/);
  });
  it('accepts an ordinary strong password, spaces and all, untrimmed', () => {
    expect(passwordProblem('correct horse battery staple', 'someone')).toBeNull();
    expect(passwordProblem('  t-spin triple  ', 'someone')).toBeNull();
  });
});
