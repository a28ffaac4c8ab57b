import { NextResponse } from 'next/server';
import { moderationActionSchema } from '@/lib/validations/moderation';
import { requireModerator } from '@/lib/server/guards';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { decide } from '@/lib/server/moderation/decide';
import { route } from '@/lib/server/route';

/** A moderator's decision: approve / reject a game, ban / unban a player, dismiss a report. */
export const POST = route(async (request: Request) => {
  const guarded = await requireModerator();
  if (!guarded.ok) return guarded.response;
  const body = await readJson(request, 2048);
  if (!body.ok) return body.response;
  const parsed = moderationActionSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const outcome = await decide({ actor: { id: guarded.user.id, name: guarded.user.name }, input: parsed.data });
  if (!outcome.ok) return apiError(outcome.status, outcome.code, outcome.message);
  return NextResponse.json({ action: outcome.action });
});
