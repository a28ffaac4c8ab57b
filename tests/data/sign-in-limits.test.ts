import { beforeEach, describe, expect, it } from 'vitest';
import { RULES } from '@/lib/server/limits/rules';
import { countSignInAttempt } from '@/lib/server/limits/sign-in-count';
import { resetDb } from '@/tests/data/db';

beforeEach(resetDb);

const start = Date.UTC(2026, 10, 23, 12, 0, 0);
const at = (ms: number) => new Date(start + ms);

describe('sign-in limits: no lockout of the owner', () => {
  it('150 spaced guesses from one address do not lock the owner out on another address', async () => {
    // One guess every 21 s stays under the address's own 30 / 10 min; the per-account-and-address
    // rule refuses most of them. Those refusals must not count toward the account-wide rule.
    for (let i = 0; i < 150; i++) {
      await countSignInAttempt({ address: '203.0.113.9', account: 'owner', trusted: false, now: at(i * 21_000) });
    }
    const owner = await countSignInAttempt({ address: '198.51.100.20', account: 'owner', trusted: false, now: at(150 * 21_000) });
    expect(owner.verdict).toEqual({ ok: true });
  });

  it('still stops a guesser spread over many addresses once the account-wide limit is reached', async () => {
    const { limit } = RULES.signInAccount;
    for (let i = 0; i < limit; i++) {
      const attempt = await countSignInAttempt({ address: `10.0.${i >> 8}.${i & 255}`, account: 'target', trusted: false, now: at(i * 1000) });
      expect(attempt.verdict.ok).toBe(true);
    }
    const next = await countSignInAttempt({ address: '10.9.9.9', account: 'target', trusted: false, now: at(limit * 1000) });
    expect(next.verdict).toMatchObject({ ok: false, rule: 'signInAccount' });
    // The owner's own browser (device cookie) skips the account rules.
    const device = await countSignInAttempt({ address: '10.9.9.10', account: 'target', trusted: true, now: at(limit * 1000) });
    expect(device).toEqual({ verdict: { ok: true }, counted: [] });
  });

  it('refuses the sixth wrong guess from one address, and counts only what passed the address rules', async () => {
    const { limit } = RULES.signInAccountAddress;
    for (let i = 0; i < limit; i++) {
      const attempt = await countSignInAttempt({ address: '192.0.2.1', account: 'carol', trusted: false, now: at(i) });
      expect(attempt.counted.map((c) => c.rule)).toEqual(['signInAccountAddress', 'signInAccount']);
    }
    const refused = await countSignInAttempt({ address: '192.0.2.1', account: 'carol', trusted: false, now: at(limit) });
    expect(refused.verdict).toMatchObject({ ok: false, rule: 'signInAccountAddress' });
    expect(refused.counted.map((c) => c.rule)).toEqual(['signInAccountAddress']);
  });
});
