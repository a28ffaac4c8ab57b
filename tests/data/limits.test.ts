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

  describe('counts gathered into one statement (made while another is being written)', () => {
    // The first of a burst goes alone; the rest wait for it and are counted in one statement.
    const burst = <T>(n: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => make(i)));
    const countOf = async (key: string) => (await (await getDb()).rateLimit.findMany({ where: { key } })).reduce((sum, r) => sum + r.count, 0);

    it('gives each request the count it would have seen alone: the limit per subject, every event counted once', async () => {
      const attempts = RULES.signUpAttemptAddress.limit;
      const checks = (subject: string) => [{ rule: 'signUpAddress' as const, subject }, { rule: 'signUpAttemptAddress' as const, subject }];
      // Two subjects interleaved, two rules each, past the tighter limit.
      const verdicts = await burst(2 * (limit + 3), (i) => hit(checks(i % 2 ? 'even' : 'odd'), at(1000 + i)));
      for (const parity of [0, 1]) {
        const mine = verdicts.filter((_, i) => i % 2 === parity);
        expect(mine.filter((v) => v.ok)).toHaveLength(limit);
        expect(mine.slice(limit).every((v) => !v.ok && v.rule === 'signUpAddress')).toBe(true);
      }
      expect(await countOf('signUpAddress:odd')).toBe(limit + 3);
      expect(await countOf('signUpAttemptAddress:even')).toBe(limit + 3);
      expect(attempts).toBeGreaterThan(limit + 3);
    });

    it('counts what a batch wrote in the window before, when it straddles the boundary', async () => {
      const check = [{ rule: 'signUpAddress' as const, subject: 'edge' }];
      // `limit` events at the very end of a window, then one just after it: the sliding window still holds them all.
      const verdicts = await burst(limit + 1, (i) => hit(check, i < limit ? at(windowMs - 1000 + i) : at(windowMs + 1)));
      expect(verdicts.slice(0, limit).every((v) => v.ok)).toBe(true);
      expect(verdicts[limit]).toMatchObject({ ok: false, rule: 'signUpAddress' });
    });

    it('fails only the request whose input the database refuses, and counts the others exactly', async () => {
      const good = [{ rule: 'signUpAddress' as const, subject: 'neighbour' }];
      // A NUL is no valid text for PostgreSQL: the statement that holds it fails as a whole.
      const poisoned = [{ rule: 'signUpAddress' as const, subject: 'evil\u0000' }];
      const outcomes = await burst(7, (i) => hit(i === 3 ? poisoned : good, at(1000 + i)).then((v) => v.ok, () => 'failed'));
      expect(outcomes).toEqual([true, true, true, 'failed', true, true, true]);
      expect(await countOf('signUpAddress:neighbour')).toBe(6);
    });

    it('answers no request of a batch whose statement failed, and counts none of it: no one gets past the limit by a failure', async () => {
      const check = [{ rule: 'signUpAddress' as const, subject: 'outage' }];
      for (let i = 0; i < limit - 1; i++) expect((await hit(check, at(i))).ok).toBe(true);
      const holder = globalThis as { __linefallDbDown?: boolean };
      holder.__linefallDbDown = true;
      const during = await burst(5, (i) => hit(check, at(100 + i)).then((v) => v.ok, (e: Error) => e.name)).finally(() => (holder.__linefallDbDown = false));
      expect(during).toEqual(Array(5).fill('DbUnavailableError'));
      expect(await countOf('signUpAddress:outage')).toBe(limit - 1);
      const after = await burst(3, (i) => hit(check, at(200 + i)));
      expect(after.map((v) => v.ok)).toEqual([true, false, false]);
    });
  });
});
