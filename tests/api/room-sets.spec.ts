import { expect, test } from '@playwright/test';
import { uniqueAddress } from '@/tests/e2e/fixtures';

// The stored room set's read route on both databases. A stored set itself is read on both
// databases in tests/data/room-sets.test.ts, and through a real browser in tests/e2e/room-sets.spec.ts.

test('an unknown or malformed room set id is a 404 in the API’s own error shape, never a page or a 500', async ({ request }) => {
  const headers = { 'x-forwarded-for': uniqueAddress() };
  for (const id of ['nope', 'a'.repeat(41), 'bad%20id', '..%2F..%2Fapi']) {
    const res = await request.get(`/api/versus/rooms/sets/${id}`, { headers });
    expect(res.status(), id).toBe(404);
    expect(res.headers()['content-type']).toContain('application/json');
    const body = (await res.json()) as { error: { code: string } };
    expect(['room_set_not_found', 'not_found'], id).toContain(body.error.code);
  }
  expect(await (await request.get('/api/versus/rooms/sets/nope', { headers })).json()).toEqual({ error: { code: 'room_set_not_found', message: 'No stored room set has this id.' } });
});
