import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { RULES } from '@/lib/server/limits/rules';
import { uniqueUsername } from '@/tests/e2e/fixtures';
import { newClient } from '@/tests/api/client';

// An IPv6 subscriber is given a whole /64 and can pick a new address in it for every request:
// the rate limits count per /64 (lib/server/limits/http.ts), whatever spelling of the address
// the proxy passes on.

const PASSWORD = 'api-password-123';

/** A /64 of the documentation range (2001:db8::/32) that no other test uses. */
function uniquePrefix(): string {
  const [a, b, c, d] = randomBytes(4);
  return `2001:db8:${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
}

async function signUpFrom(baseURL: string, address: string): Promise<number> {
  const api = await newClient(baseURL, { address });
  const status = (await api.post('/api/account', { data: { username: uniqueUsername('v6'), password: PASSWORD } })).status();
  await api.dispose();
  return status;
}

test('IPv6 addresses of one /64 share a rate limit, however they are written; another /64 does not', async ({ baseURL }) => {
  const prefix = uniquePrefix();
  const [, , p3, p4] = prefix.split(':');
  const spellings = [
    `${prefix}::1`,
    `${prefix}:ffff:ffff:ffff:fffe`,
    `${prefix.toUpperCase()}::ABCD`,
    `[${prefix}::2]:443`,
    `2001:0db8:${p3!.padStart(4, '0')}:${p4!.padStart(4, '0')}:0:0:0:3`,
    `${prefix}:1:2:3:4%eth0`,
  ];
  const limit = RULES.signUpAddress.limit;
  for (let i = 0; i < limit; i++) {
    const address = spellings[i % spellings.length]!.replace(/::(\w+)$/, `::${(i + 16).toString(16)}`);
    expect(await signUpFrom(baseURL!, address), address).toBe(201);
  }
  expect(await signUpFrom(baseURL!, `${prefix}:dead:beef:0:1`)).toBe(429);

  // The neighbouring /64 is another subscriber.
  const [, , , q4] = uniquePrefix().split(':');
  expect(await signUpFrom(baseURL!, `${prefix.split(':').slice(0, 3).join(':')}:${q4}::1`)).toBe(201);
});
