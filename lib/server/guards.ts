import 'server-only';
import type { NextResponse } from 'next/server';
import type { z } from 'zod';
import { reauthenticate } from '@/lib/server/account/password';
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
  if (!(await reauthenticate({ userId: guarded.user.id, password: parsed.data.password }))) {
    return { ok: false, response: apiError(400, 'wrong_password', 'Your password is not right.', 'password') };
  }
  return { ok: true, user: guarded.user, data: parsed.data };
}
