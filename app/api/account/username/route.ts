import { NextResponse } from 'next/server';
import { changeUsernameSchema } from '@/lib/validations/account';
import { changeUsername } from '@/lib/server/account/username';
import { sessionState } from '@/lib/server/account/sessions';
import { reissueSession } from '@/lib/server/auth';
import { requirePlayer } from '@/lib/server/guards';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { route } from '@/lib/server/route';

const STATUS = { username_taken: 409, username_banned: 409, rename_too_soon: 429, not_found: 404 } as const;

/** Rename (sign-up's rules, once per 30 days); the old name redirects to the profile for 90 days. */
export const POST = route(async (request: Request) => {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded.response;
  const body = await readJson(request, 1024);
  if (!body.ok) return body.response;
  const parsed = changeUsernameSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const outcome = await changeUsername({ userId: guarded.user.id, username: parsed.data.username });
  if (!outcome.ok) return apiError(STATUS[outcome.code], outcome.code, outcome.message, 'username');
  const response = NextResponse.json({ username: outcome.username });
  const state = await sessionState({ userId: guarded.user.id, fresh: true });
  if (state) await reissueSession(response, { id: guarded.user.id, name: outcome.username, sessionVersion: state.version, signedInAt: guarded.user.signedInAt });
  return response;
});
