import NextAuth from 'next-auth';
import { authOptions } from '@/lib/server/auth';
import { signInWithLimits } from '@/lib/server/limits/sign-in';
import { route } from '@/lib/server/route';

type Context = { params: Promise<{ nextauth: string[] }> };
const handler = NextAuth(authOptions) as (request: Request, context: Context) => Promise<Response>;

export { handler as GET };

/** Password sign-ins pass the rate limits first; next-auth's other POSTs go straight through. */
export const POST = route(async (request: Request, context: Context) => {
  const { nextauth } = await context.params;
  // next-auth reads only the first two segments, so /callback/credentials/anything signs in too.
  if (nextauth[0] !== 'callback' || nextauth[1] !== 'credentials') return handler(request, context);
  return signInWithLimits(request, (req) => handler(req, context));
});
