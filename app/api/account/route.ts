import { NextResponse } from 'next/server';
import { signUpSchema } from '@/lib/validations/auth';
import { deleteAccountSchema } from '@/lib/validations/account';
import { deleteAccount } from '@/lib/server/account/delete';
import { regenerateRecoveryCodes } from '@/lib/server/account/recovery';
import { NAME_BANNED_MESSAGE } from '@/lib/server/account/tombstones';
import { endSession } from '@/lib/server/auth';
import { requireReauthenticated } from '@/lib/server/guards';
import { createUser } from '@/lib/server/users';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { refund } from '@/lib/server/limits/limiter';
import { mailConfigured } from '@/lib/server/mail';
import { passwordProblem } from '@/lib/server/password-policy';
import { route } from '@/lib/server/route';

/**
 * Sign up. The browser then signs in through next-auth with the same credentials. Without mail
 * there is no reset link, so the answer carries recovery codes, shown once.
 */
export const POST = route(async (request: Request) => {
  // Counted before anything else, and long before a password is hashed; the new-account count is
  // given back below when no account is made.
  const subject = await clientAddressKey();
  const accounts = [{ rule: 'signUpAddress' as const, subject }];
  // One moment for the count and its refund: a slow request must give back the window it was
  // counted in, not take one off the next window's accounts.
  const at = new Date();
  const limited = await enforce([{ rule: 'signUpAttemptAddress', subject }, ...accounts], at);
  if (limited) return limited;
  const response = await signUp(request);
  if (response.status !== 201) await refund(accounts, at);
  return response;
});

async function signUp(request: Request): Promise<Response> {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = signUpSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const problem = passwordProblem(parsed.data.password, parsed.data.username);
  if (problem) return apiError(400, 'weak_password', problem, 'password');
  const result = await createUser(parsed.data);
  if (!result.ok) {
    return result.error === 'UsernameBanned'
      ? apiError(409, 'username_banned', NAME_BANNED_MESSAGE, 'username')
      : apiError(409, 'username_taken', 'That username is taken.', 'username');
  }
  const recoveryCodes = mailConfigured() ? null : await regenerateRecoveryCodes({ userId: result.user.id });
  return NextResponse.json({ user: result.user, recoveryCodes }, { status: 201, headers: { 'cache-control': 'no-store' } });
}

/** Delete the signed-in account: password (when it has one) and the typed confirmation first. */
export const DELETE = route(async (request: Request) => {
  const guarded = await requireReauthenticated(request, deleteAccountSchema);
  if (!guarded.ok) return guarded.response;
  await deleteAccount({ userId: guarded.user.id });
  const response = NextResponse.json({ deleted: true });
  await endSession(response);
  return response;
});
