import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { hit, pruneLimits, refund } from '@/lib/server/limits/limiter';
import { RULES } from '@/lib/server/limits/rules';
import { resetDb } from '@/tests/data/db';

beforeEach(resetDb);

const { limit, windowMs } = RULES.signUpAddress;
// The start of a window, so "later in the same window" is easy to say.
const start = new Date(Math.ceil(Date.now() / windowMs) * windowMs);
const at = (ms: number) => new Date(start.getTime() + ms);

describe('rate limiter (sliding window in the database)', () => {
  it('allows exactly the limit, then refuses with a Retry-After that really frees a slot', async () => {
    const check = [{ rule: 'signUpAddress' as const, subject: '198.51.100.7' }];
    for (let i = 0; i < limit; i++) expect((await hit(check, at(i))).ok).toBe(true);
    const refused = await hit(check, at(limit));
    expect(refused).toMatchObject({ ok: false, rule: 'signUpAddress' });
    if (refused.ok) return;
    // A refused attempt counts too; the wait accounts for it: a second earlier is still too soon.
    expect((await hit(check, at(limit + refused.retryAfterSeconds * 1000 - 1000))).ok).toBe(false);
  });

  it('allows one more once Retry-After has passed', async () => {
    const check = [{ rule: 'signUpAddress' as const, subject: '198.51.100.8' }];
    for (let i = 0; i <= limit; i++) await hit(check, at(i));
    const refused = await hit(check, at(limit + 1));
    if (refused.ok) throw new Error('expected a refusal');
    expect((await hit(check, at(limit + 1 + refused.retryAfterSeconds * 1000))).ok).toBe(true);
  });

  it('counts each subject separately', async () => {
    for (let i = 0; i < limit; i++) await hit([{ rule: 'signUpAddress', subject: 'one' }], at(i));
    expect((await hit([{ rule: 'signUpAddress', subject: 'two' }], at(limit))).ok).toBe(true);
    expect((await hit([{ rule: 'signUpAddress', subject: 'one' }], at(limit))).ok).toBe(false);
  });

  it('gives the last slots to exactly as many concurrent requests as the limit allows', async () => {
    const check = [{ rule: 'signUpAddress' as const, subject: 'racer' }];
    const verdicts = await Promise.all(Array.from({ length: limit * 2 }, () => hit(check, at(1000))));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(limit);
  });

  it('counts every check at once, and refund gives one event back to each', async () => {
    const checks = [
      { rule: 'signInAccountAddress' as const, subject: 'bob@1.2.3.4' },
      { rule: 'signInAccount' as const, subject: 'bob' },
    ];
    const { limit: perAddress } = RULES.signInAccountAddress;
    for (let i = 0; i < perAddress; i++) {
      expect((await hit(checks, at(i))).ok).toBe(true);
      await refund(checks, at(i));
    }
    for (let i = 0; i < perAddress; i++) expect((await hit(checks, at(100 + i))).ok).toBe(true);
    expect(await hit(checks, at(200))).toMatchObject({ ok: false, rule: 'signInAccountAddress' });
    // The account-wide rule is far from its limit, so another address is still allowed.
    expect((await hit([{ rule: 'signInAccountAddress', subject: 'bob@5.6.7.8' }, checks[1]!], at(300))).ok).toBe(true);
  });

  it('prunes counters once they can no longer matter, and keeps the others', async () => {
    await hit([{ rule: 'signUpAddress', subject: 'old' }], at(0));
    await hit([{ rule: 'signUpAddress', subject: 'new' }], at(2 * windowMs));
    expect(await pruneLimits(at(2 * windowMs + 1))).toBe(1);
    const db = await getDb();
    expect((await db.rateLimit.findMany()).map((r) => r.key)).toEqual(['signUpAddress:new']);
  });
});
