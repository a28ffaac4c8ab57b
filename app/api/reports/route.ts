import { NextResponse } from 'next/server';
import { reportSchema } from '@/lib/validations/moderation';
import { requirePlayer } from '@/lib/server/guards';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { enforce } from '@/lib/server/limits/http';
import { fileReport } from '@/lib/server/moderation/reports';
import { route } from '@/lib/server/route';

/** Report a game or a player to the moderators (signed in; rate-limited; one open report per game). */
export const POST = route(async (request: Request) => {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded.response;
  const limited = await enforce([{ rule: 'reportPlayer', subject: guarded.user.id }]);
  if (limited) return limited;
  const body = await readJson(request, 2048);
  if (!body.ok) return body.response;
  const parsed = reportSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const outcome = await fileReport({ reporterId: guarded.user.id, report: parsed.data });
  if (!outcome.ok) return apiError(outcome.status, outcome.code, outcome.message);
  return NextResponse.json({ id: outcome.id }, { status: 201 });
});
