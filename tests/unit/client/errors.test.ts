import { describe, expect, it } from 'vitest';
import { problemOf, readProblem } from '@/lib/client/errors';

describe('the error envelope, read in the browser', () => {
  it('reads code, message and field from {error: {code, message, field}}', async () => {
    const res = new Response(JSON.stringify({ error: { code: 'invalid_input', message: 'Too short', field: 'username' } }), { status: 400 });
    expect(await readProblem(res)).toEqual({ status: 400, code: 'invalid_input', message: 'Too short', field: 'username' });
  });

  it('still gives a code and a message for a body that is not the envelope', async () => {
    expect(await readProblem(new Response('<html>Bad gateway</html>', { status: 502 }))).toEqual({ status: 502, code: 'http_502', message: 'The server answered 502.' });
    expect(problemOf(500, { error: { code: 7, message: null } }, 'Sign-up failed.')).toEqual({ status: 500, code: 'http_500', message: 'Sign-up failed.' });
    expect(problemOf(404, null)).not.toHaveProperty('field');
  });
});
