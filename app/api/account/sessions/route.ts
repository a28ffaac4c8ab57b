import { NextResponse } from 'next/server';
import { bumpSessionVersion } from '@/lib/server/account/sessions';
import { reissueSession } from '@/lib/server/auth';
import { getDb } from '@/lib/server/db';
import { requirePlayer } from '@/lib/server/guards';
import { route } from '@/lib/server/route';

/** "Sign out everywhere else": every session issued so far stops working; this browser gets a new one. */
export const DELETE = route(async () => {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded.response;
  const sessionVersion = await bumpSessionVersion(await getDb(), guarded.user.id);
  const response = NextResponse.json({ ok: true });
  await reissueSession(response, { id: guarded.user.id, name: guarded.user.name, sessionVersion, signedInAt: guarded.user.signedInAt });
  return response;
});
