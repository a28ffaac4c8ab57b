import 'server-only';
import { NextResponse } from 'next/server';
import type { z } from 'zod';
import { reauthenticate, type ReauthOutcome } from '@/lib/server/account/password';
import { getSessionUser, type SessionUser } from '@/lib/server/auth';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { enforce } from '@/lib/server/limits/http';
import { canModerate, isAdmin } from '@/lib/server/moderation/roles';

type Guarded = { ok: true; user: SessionUser } | { ok: false; response: NextResponse };

/** The signed-in player for a write, read fresh (no cache): a signed-out session cannot write. */
export async function requirePlayer(): Promise<Guarded> {
  const user = await getSessionUser({ fresh: true });
  if (!user) return { ok: false, response: apiError(401, 'unauthenticated', 'Sign in first.') };
  return { ok: true, user };
}

/** A moderator or admin, checked against the database on every call; anyone else gets 403. */
export async function requireModerator(): Promise<Guarded> {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded;
  if (!canModerate(guarded.user.role)) return { ok: false, response: apiError(403, 'forbidden', 'Only moderators can do this.') };
  return guarded;
}

/** An admin, checked against the database on every call; anyone else gets 403. */
export async function requireAdmin(): Promise<Guarded> {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded;
  if (!isAdmin(guarded.user.role)) return { ok: false, response: apiError(403, 'forbidden', 'Only admins can do this.') };
  return guarded;
}

/**
 * The signed-in player who has just typed their password again (`schema` has a `password`), for
 * the account's gravest writes; rate-limited per player, so the password cannot be guessed here.
 * An account without a password must have signed in with its provider recently instead
 * (403 `reauth_required`, naming the providers to sign in again with).
 */
export async function requireReauthenticated<S extends z.ZodType<{ password: string }>>(
  request: Request,
  schema: S,
): Promise<{ ok: true; user: SessionUser; data: z.infer<S> } | { ok: false; response: NextResponse }> {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded;
  const limited = await enforce([{ rule: 'reauthPlayer', subject: guarded.user.id }]);
  if (limited) return { ok: false, response: limited };
  const body = await readJson(request, 1024);
  if (!body.ok) return body;
  const parsed = schema.safeParse(body.value);
  if (!parsed.success) return { ok: false, response: validationError(parsed.error) };
  const proof = await reauthenticate({ userId: guarded.user.id, password: parsed.data.password, signedInAt: guarded.user.signedInAt });
  if (!proof.ok) return { ok: false, response: reauthRefusal(proof) };
  return { ok: true, user: guarded.user, data: parsed.data };
}

/** The answer to a refused re-authentication: a wrong password, or a sign-in with the provider needed. */
export function reauthRefusal(refusal: Exclude<ReauthOutcome, { ok: true }>): NextResponse {
  if (refusal.code === 'wrong_password') return apiError(400, 'wrong_password', refusal.message, 'password');
  return NextResponse.json({ error: { code: refusal.code, message: refusal.message }, providers: refusal.providers }, { status: 403 });
}
