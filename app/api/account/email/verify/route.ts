import { NextResponse } from 'next/server';
import { tokenSchema } from '@/lib/validations/account';
import { verifyEmail } from '@/lib/server/account/links';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { route } from '@/lib/server/route';

/** Confirms an address from its mailed link (a button press on /account/email, not the link's GET: mail scanners follow links). */
export const POST = route(async (request: Request) => {
  const body = await readJson(request, 1024);
  if (!body.ok) return body.response;
  const parsed = tokenSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const outcome = await verifyEmail({ token: parsed.data.token });
  if (!outcome.ok) return apiError(outcome.code === 'link_invalid' ? 410 : 409, outcome.code, outcome.message);
  return NextResponse.json({ email: outcome.email });
});
