import { NextResponse } from 'next/server';
import { requireModerator } from '@/lib/server/guards';
import { moderationQueue } from '@/lib/server/moderation/queue';
import { route } from '@/lib/server/route';

/** The moderation queue as JSON (held games, open reports, players' histories, the audit log), for moderators' scripts. */
export const GET = route(async () => {
  const guarded = await requireModerator();
  if (!guarded.ok) return guarded.response;
  return NextResponse.json(await moderationQueue({ limit: 100 }), { headers: { 'cache-control': 'no-store' } });
});
