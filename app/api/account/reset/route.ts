import { NextResponse } from 'next/server';
import { recoverSchema, resetPasswordSchema } from '@/lib/validations/account';
import { resetPassword } from '@/lib/server/account/links';
import { recoverWithCode, type RecoverOutcome } from '@/lib/server/account/recovery';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';

/**
 * Set a new password with a mailed reset token, or with username + recovery code. Every session
 * of the account is signed out; the player then signs in with the new password.
 */
export const POST = route(async (request: Request) => {
  const limited = await enforce([{ rule: 'recoveryAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  const body = await readJson(request, 2048);
  if (!body.ok) return body.response;
  const byCode = typeof body.value === 'object' && body.value !== null && 'code' in body.value;
  let outcome: RecoverOutcome;
  if (byCode) {
    const parsed = recoverSchema.safeParse(body.value);
    if (!parsed.success) return validationError(parsed.error);
    outcome = await recoverWithCode(parsed.data);
  } else {
    const parsed = resetPasswordSchema.safeParse(body.value);
    if (!parsed.success) return validationError(parsed.error);
    outcome = await resetPassword(parsed.data);
  }
  if (!outcome.ok) return apiError(outcome.code === 'weak_password' ? 400 : 410, outcome.code, outcome.message, outcome.code === 'weak_password' ? 'password' : undefined);
  return NextResponse.json({ ok: true });
});
