import 'server-only';
import { NextRequest, NextResponse } from 'next/server';
import { usernameKey } from '@/lib/validations/auth';
import { sessionSetBy } from '@/lib/server/auth';
import { cookieAttributes } from '@/lib/server/cookies';
import { apiError, readCapped } from '@/lib/server/http';
import { databaseUnavailable } from '@/lib/server/route';
import { DEVICE_COOKIE, DEVICE_MAX_AGE_SECONDS, deviceCookieFor, trustedDevice } from '@/lib/server/limits/device';
import { clientAddressKey, tooManyRequests } from '@/lib/server/limits/http';
import { hit, refund, type Verdict } from '@/lib/server/limits/limiter';
import { countSignInAttempt } from '@/lib/server/limits/sign-in-count';

const FORM = 'application/x-www-form-urlencoded';
const BODY_LIMIT = 4 * 1024;

/**
 * Rate limits around next-auth's credentials sign-in, decided before next-auth hashes anything:
 * every attempt counts against the caller's address; every attempt on an account counts against
 * it from that address and from everywhere (given back when it succeeds), unless this browser
 * proved itself with a device cookie.
 */
export async function signInWithLimits(request: Request, signIn: (request: NextRequest) => Promise<Response>): Promise<Response> {
  const address = await clientAddressKey();
  const attempt = await hit([{ rule: 'signInAddress', subject: address }]);
  if (!attempt.ok) return limited(request, attempt);

  // The body is read here, once, and handed on unchanged, so the account we limit is the one
  // next-auth signs in: only next-auth's own form encoding, and no field given twice (it keeps
  // the last value of a repeated field, URLSearchParams.get the first).
  const type = request.headers.get('content-type') ?? '';
  if (!type.includes(FORM) || type.includes('json')) return apiError(415, 'unsupported_media_type', `Sign-in takes a ${FORM} form.`);
  const text = await readCapped(request, BODY_LIMIT);
  if (text === null) return apiError(413, 'payload_too_large', `Body exceeds ${BODY_LIMIT} bytes`);
  const fields = new URLSearchParams(text);
  const names = [...fields.keys()];
  if (new Set(names).size !== names.length) return apiError(400, 'invalid_input', 'Each sign-in field may be sent once.');
  const raw = fields.get('username');
  const account = raw?.trim() ? usernameKey(raw).slice(0, 64) : null;

  const trusted = account !== null && (await trustedDevice(account));
  // Counted before the password is checked, so parallel guesses cannot all pass a check that
  // only counts failures afterwards.
  const { verdict: guessing, counted: accountChecks } = await countSignInAttempt({ address, account, trusted });
  if (!guessing.ok) return limited(request, guessing);

  const response = await signIn(new NextRequest(request.url, { method: 'POST', headers: request.headers, body: text }));
  const session = await sessionSetBy(response);
  if (!session) {
    if (await failedForUnavailability(response)) {
      await refund(accountChecks);
      return databaseUnavailable({ url: '/signin?error=Unavailable' });
    }
    return response;
  }
  await refund(accountChecks);
  // The device cookie names the account the session was issued for (its id), never the submitted text.
  const withDevice = new NextResponse(response.body, response);
  withDevice.cookies.set(DEVICE_COOKIE, await deviceCookieFor(session.id), cookieAttributes(request, DEVICE_MAX_AGE_SECONDS));
  return withDevice;
}

/** next-auth reports an error thrown in `authorize` as `error=<message>` in the JSON `url`. */
async function failedForUnavailability(response: Response): Promise<boolean> {
  const body = (await response.clone().json().catch(() => null)) as { url?: unknown } | null;
  if (typeof body?.url !== 'string') return false;
  return new URL(body.url, 'http://x').searchParams.get('error') === 'Unavailable';
}

/** next-auth's client reads the error code from the `url` in the JSON, so the 429 carries one. */
function limited(request: Request, verdict: Extract<Verdict, { ok: false }>) {
  const url = new URL('/signin', request.url);
  url.searchParams.set('error', 'RateLimited');
  return tooManyRequests(verdict, { url: url.toString() });
}
