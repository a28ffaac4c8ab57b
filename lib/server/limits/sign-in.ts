import 'server-only';
import { NextResponse } from 'next/server';
import { usernameKey } from '@/lib/validations/auth';
import { cookieAttributes } from '../cookies';
import { DEVICE_COOKIE, DEVICE_MAX_AGE_SECONDS, deviceToken, trustedDevice } from './device';
import { clientAddressKey } from './http';
import { hit, peek, type Check, type Verdict } from './limiter';
import { RULES } from './rules';

/**
 * Rate limits around next-auth's credentials sign-in, decided before next-auth hashes anything:
 * every attempt counts against the caller's address; wrong passwords count against the account
 * from that address and from everywhere, unless this browser proved itself with a device cookie.
 */
export async function signInWithLimits(request: Request, signIn: (request: Request) => Promise<Response>): Promise<Response> {
  const form = await request.clone().formData().catch(() => null);
  const raw = form?.get('username');
  const account = typeof raw === 'string' && raw.trim() ? usernameKey(raw).slice(0, 64) : null;
  const address = await clientAddressKey();

  const attempt = await hit([{ rule: 'signInAddress', subject: address }]);
  if (!attempt.ok) return limited(request, attempt);
  const trusted = account !== null && (await trustedDevice(account));
  const accountChecks: Check[] =
    account && !trusted
      ? [
          { rule: 'signInAccountAddress', subject: `${account}@${address}` },
          { rule: 'signInAccount', subject: account },
        ]
      : [];
  const guessing = await peek(accountChecks);
  if (!guessing.ok) return limited(request, guessing);

  const response = await signIn(request);
  const signedIn = response.headers.getSetCookie().some((c) => /^(__Secure-)?next-auth\.session-token=[^;]/.test(c));
  if (!signedIn) {
    await hit(accountChecks);
    return response;
  }
  if (!account) return response;
  const withDevice = new NextResponse(response.body, response);
  withDevice.cookies.set(DEVICE_COOKIE, deviceToken(account), cookieAttributes(request, DEVICE_MAX_AGE_SECONDS));
  return withDevice;
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
