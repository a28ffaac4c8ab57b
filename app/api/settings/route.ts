import { NextResponse } from 'next/server';
import { getSessionUser } from '@/lib/server/auth';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { route } from '@/lib/server/route';
import { getSettings, saveSettings } from '@/lib/server/settings';
import { settingsSchema } from '@/lib/validations/settings';

const NO_STORE = { 'cache-control': 'no-store' };

/** The signed-in player's settings; `null` when they have never saved any. */
export const GET = route(async () => {
  const user = await getSessionUser();
  if (!user) return apiError(401, 'unauthenticated', 'Sign in to keep settings in your account.');
  return NextResponse.json({ settings: await getSettings({ userId: user.id }) }, { headers: NO_STORE });
});

/** Replaces the whole settings object. */
export const PUT = route(async (request: Request) => {
  const user = await getSessionUser();
  if (!user) return apiError(401, 'unauthenticated', 'Sign in to keep settings in your account.');
  const body = await readJson(request, 8 * 1024);
  if (!body.ok) return body.response;
  const parsed = settingsSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  if (!(await saveSettings({ userId: user.id, settings: parsed.data }))) return apiError(401, 'unauthenticated', 'This account no longer exists.');
  return NextResponse.json({ settings: parsed.data }, { headers: NO_STORE });
});
