import { NextResponse } from 'next/server';
import { emailSchema } from '@/lib/validations/account';
import { mailResetLink } from '@/lib/server/account/mails';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { mailConfigured } from '@/lib/server/mail';
import { route } from '@/lib/server/route';

/** Ask for a reset link. The answer is the same whether or not the address belongs to an account. */
export const POST = route(async (request: Request) => {
  if (!mailConfigured()) return apiError(409, 'mail_unavailable', 'This site sends no mail: use one of your recovery codes.');
  const limited = await enforce([{ rule: 'recoveryAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  const body = await readJson(request, 1024);
  if (!body.ok) return body.response;
  const parsed = emailSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  await mailResetLink({ email: parsed.data.email });
  return NextResponse.json({ message: 'If an account has that confirmed address, a link to reset its password is on its way. It works for 30 minutes.' }, { status: 202 });
});
