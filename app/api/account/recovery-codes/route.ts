import { NextResponse } from 'next/server';
import { reauthSchema } from '@/lib/validations/account';
import { regenerateRecoveryCodes } from '@/lib/server/account/recovery';
import { requireReauthenticated } from '@/lib/server/guards';
import { route } from '@/lib/server/route';

/** New recovery codes (the old ones stop working), shown once in the answer. Needs the password. */
export const POST = route(async (request: Request) => {
  const guarded = await requireReauthenticated(request, reauthSchema);
  if (!guarded.ok) return guarded.response;
  const codes = await regenerateRecoveryCodes({ userId: guarded.user.id });
  return NextResponse.json({ codes }, { headers: { 'cache-control': 'no-store' } });
});
