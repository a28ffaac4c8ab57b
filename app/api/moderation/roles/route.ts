import { NextResponse } from 'next/server';
import { roleChangeSchema } from '@/lib/validations/moderation';
import { requireAdmin } from '@/lib/server/guards';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { setRole } from '@/lib/server/moderation/roles';
import { route } from '@/lib/server/route';

/** An admin gives or takes a role (logged as grant or revoke; the site always keeps an admin). */
export const POST = route(async (request: Request) => {
  const guarded = await requireAdmin();
  if (!guarded.ok) return guarded.response;
  const body = await readJson(request, 1024);
  if (!body.ok) return body.response;
  const parsed = roleChangeSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const outcome = await setRole({ username: parsed.data.username, role: parsed.data.role, actor: { id: guarded.user.id, name: guarded.user.name } });
  if (!outcome.ok) return apiError(outcome.status, outcome.code, outcome.message);
  return NextResponse.json({ username: parsed.data.username, role: parsed.data.role });
});
