import { describe, expect, it } from 'vitest';
import { deleteAccountSchema } from '@/lib/validations/account';
import { moderationActionSchema, reportSchema } from '@/lib/validations/moderation';
import { newRecoveryCode, normalRecoveryCode } from '@/lib/server/account/tokens';

describe('account and moderation payloads', () => {
  it('a report names exactly one game or player, and form blanks count as absent', () => {
    expect(reportSchema.safeParse({ gameId: 'g1', reason: 'cheating', username: '', note: '' }).data).toEqual({ gameId: 'g1', reason: 'cheating' });
    expect(reportSchema.safeParse({ gameId: 'g1', username: 'someone', reason: 'cheating' }).success).toBe(false);
    expect(reportSchema.safeParse({ reason: 'cheating' }).success).toBe(false);
    expect(reportSchema.safeParse({ username: 'someone', reason: 'because' }).success).toBe(false);
  });

  it('every moderation decision but an approval needs a reason', () => {
    expect(moderationActionSchema.safeParse({ action: 'approve', gameId: 'g1' }).success).toBe(true);
    expect(moderationActionSchema.safeParse({ action: 'ban', username: 'x', reason: '  ' }).error?.issues[0]?.path).toEqual(['reason']);
    expect(moderationActionSchema.safeParse({ action: 'ban', username: 'x', reason: 'bot' }).success).toBe(true);
  });

  it('deleting needs the exact confirmation', () => {
    expect(deleteAccountSchema.safeParse({ password: 'p', confirm: 'delete my account' }).success).toBe(true);
    expect(deleteAccountSchema.safeParse({ password: 'p', confirm: 'delete' }).success).toBe(false);
  });

  it('recovery codes read back the same however they are typed', () => {
    const code = newRecoveryCode();
    expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(normalRecoveryCode(` ${code.toUpperCase().replace(/-/g, ' ')} `)).toBe(code);
    expect(normalRecoveryCode(code.replace(/-/g, ''))).toBe(code);
  });
});
