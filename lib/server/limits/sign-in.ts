import 'server-only';
import { decode } from 'next-auth/jwt';
import { NextRequest, NextResponse } from 'next/server';
import { usernameKey } from '@/lib/validations/auth';
import { cookieAttributes } from '../cookies';
import { env } from '../env';
import { apiError, readCapped } from '../http';
import { DB_RETRY_AFTER_SECONDS } from '../route';
import { DEVICE_COOKIE, DEVICE_MAX_AGE_SECONDS, deviceToken, trustedDevice } from './device';
import { clientAddressKey } from './http';
import { hit, refund, type Check, type Verdict } from './limiter';
import { RULES } from './rules';

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
  const accountChecks: Check[] =
    account && !trusted
      ? [
          { rule: 'signInAccountAddress', subject: `${account}@${address}` },
          { rule: 'signInAccount', subject: account },
        ]
      : [];
  // Counted before the password is checked, so parallel guesses cannot all pass a check that
  // only counts failures afterwards.
  const guessing = await hit(accountChecks);
  if (!guessing.ok) return limited(request, guessing);

  const response = await signIn(new NextRequest(request.url, { method: 'POST', headers: request.headers, body: text }));
  const signedInAs = await sessionAccount(response);
  if (!signedInAs) {
    if (await failedForUnavailability(response)) {
      await refund(accountChecks);
      return unavailable();
    }
    return response;
  }
  await refund(accountChecks);
  // The device cookie names the account the session was issued for, never the submitted text.
  const withDevice = new NextResponse(response.body, response);
  withDevice.cookies.set(DEVICE_COOKIE, deviceToken(signedInAs), cookieAttributes(request, DEVICE_MAX_AGE_SECONDS));
  return withDevice;
}

/** The account key of the session next-auth just issued, or null when it issued none. */
async function sessionAccount(response: Response): Promise<string | null> {
  for (const cookie of response.headers.getSetCookie()) {
    const match = /^(?:__Secure-)?next-auth\.session-token=([^;]+)/.exec(cookie);
    if (!match) continue;
    const token = await decode({ token: match[1], secret: env.AUTH_SECRET ?? '' }).catch(() => null);
    if (token?.name) return usernameKey(token.name);
  }
  return null;
}

/** next-auth reports an error thrown in `authorize` as `error=<message>` in the JSON `url`. */
async function failedForUnavailability(response: Response): Promise<boolean> {
  const body = (await response.clone().json().catch(() => null)) as { url?: unknown } | null;
  if (typeof body?.url !== 'string') return false;
  return new URL(body.url, 'http://x').searchParams.get('error') === 'Unavailable';
}

function unavailable() {
  return NextResponse.json(
    { url: '/signin?error=Unavailable', error: { code: 'database_unavailable', message: 'Signing in is unavailable for a moment. Try again shortly.' } },
    { status: 503, headers: { 'retry-after': String(DB_RETRY_AFTER_SECONDS), 'cache-control': 'no-store' } },
  );
}

/**
 * next-auth's client reads `url` from the JSON and the error code from its query, so the 429
 * carries both that and our usual error shape.
 */
function limited(request: Request, verdict: Extract<Verdict, { ok: false }>) {
  const seconds = verdict.retryAfterSeconds;
  const url = new URL('/signin', request.url);
  url.searchParams.set('error', 'RateLimited');
  url.searchParams.set('retryAfter', String(seconds));
  const minutes = Math.ceil(seconds / 60);
  return NextResponse.json(
    {
      url: url.toString(),
      error: {
        code: 'rate_limited',
        message: `Too many ${RULES[verdict.rule].what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        retryAfter: seconds,
      },
    },
    { status: 429, headers: { 'retry-after': String(seconds), 'cache-control': 'no-store' } },
  );
}
