import { NextResponse } from 'next/server';
import { signUpSchema } from '@/lib/validations/auth';
import { createUser } from '@/lib/server/users';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { passwordProblem } from '@/lib/server/password-policy';
import { route } from '@/lib/server/route';

/** Sign up. The browser then signs in through next-auth with the same credentials. */
export const POST = route(async (request: Request) => {
  // Counted before anything else, and long before a password is hashed.
  const limited = await enforce([{ rule: 'signUpAddress', subject: await clientAddressKey() }]);
  if (limited) return limited;
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = signUpSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const problem = passwordProblem(parsed.data.password, parsed.data.username);
  if (problem) return apiError(400, 'weak_password', problem, 'password');
  const result = await createUser(parsed.data);
  if (!result.ok) return apiError(409, 'username_taken', 'That username is taken.', 'username');
  return NextResponse.json({ user: result.user }, { status: 201 });
});
