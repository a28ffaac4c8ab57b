import { NextResponse } from 'next/server';
import { emailSchema } from '@/lib/validations/account';
import { removeEmail } from '@/lib/server/account/links';
import { mailVerificationLink } from '@/lib/server/account/mails';
import { requirePlayer } from '@/lib/server/guards';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { enforce } from '@/lib/server/limits/http';
import { mailConfigured } from '@/lib/server/mail';
import { route } from '@/lib/server/route';

/** Add (or change) the email for password resets: a confirmation link is mailed to it. */
export const POST = route(async (request: Request) => {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded.response;
  if (!mailConfigured()) return apiError(409, 'mail_unavailable', 'This site sends no mail; keep your recovery codes instead.');
  const limited = await enforce([{ rule: 'reauthPlayer', subject: guarded.user.id }]);
  if (limited) return limited;
  const body = await readJson(request, 1024);
  if (!body.ok) return body.response;
  const parsed = emailSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const mailed = await mailVerificationLink({ userId: guarded.user.id, username: guarded.user.name, email: parsed.data.email });
  if (!mailed.ok) return apiError(409, mailed.code, mailed.message, 'email');
  return NextResponse.json({ sent: true }, { status: 202 });
});

export const DELETE = route(async () => {
  const guarded = await requirePlayer();
  if (!guarded.ok) return guarded.response;
  await removeEmail({ userId: guarded.user.id });
  return NextResponse.json({ removed: true });
});
