import { NextResponse } from 'next/server';
import { signUpSchema } from '@/lib/validations/auth';
import { createUser } from '@/lib/server/users';
import { readJson, validationError } from '@/lib/server/http';

/** Sign up. The browser then signs in through next-auth with the same credentials. */
export async function POST(request: Request) {
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = signUpSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const result = await createUser(parsed.data);
  if (!result.ok) {
    return NextResponse.json(
      { error: { code: 'username_taken', message: 'That username is taken.', field: 'username' } },
      { status: 409 },
    );
  }
  return NextResponse.json({ user: result.user }, { status: 201 });
}
