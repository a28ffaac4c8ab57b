import { NextResponse } from 'next/server';
import { changePasswordSchema } from '@/lib/validations/account';
import { changePassword } from '@/lib/server/account/password';
import { reissueSession } from '@/lib/server/auth';
import { reauthRefusal, requirePlayer } from '@/lib/server/guards';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';

/** Change the password: every other session is signed out, this one gets a new cookie. */
export const POST = route(async (request: Request) => {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded.response;
  const limited = await enforce([{ rule: 'reauthPlayer', subject: guarded.user.id }]);
  if (limited) return limited;
  const body = await readJson(request, 2048);
  if (!body.ok) return body.response;
  const parsed = changePasswordSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const outcome = await changePassword({ userId: guarded.user.id, current: parsed.data.current, next: parsed.data.next, signedInAt: guarded.user.signedInAt });
  if (!outcome.ok && outcome.code === 'reauth_required') return reauthRefusal(outcome);
  if (!outcome.ok) return apiError(outcome.code === 'not_found' ? 404 : 400, outcome.code, outcome.message, outcome.code === 'wrong_password' ? 'current' : 'next');
  const response = NextResponse.json({ ok: true });
  await reissueSession(response, { id: guarded.user.id, name: guarded.user.name, sessionVersion: outcome.sessionVersion, signedInAt: guarded.user.signedInAt });
  return response;
});
