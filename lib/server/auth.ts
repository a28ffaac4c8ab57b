import 'server-only';
import { getServerSession, type NextAuthOptions } from 'next-auth';
import { decode } from 'next-auth/jwt';
import { cookies } from 'next/headers';
import CredentialsProvider from 'next-auth/providers/credentials';
import DiscordProvider from 'next-auth/providers/discord';
import GitHubProvider from 'next-auth/providers/github';
import type { Provider } from 'next-auth/providers/index';
import { signInSchema, type SignInErrorCode } from '@/lib/validations/auth';
import { env } from '@/lib/server/env';
import { claimGuestGames } from '@/lib/server/games/claim';
import { readGuestId } from '@/lib/server/guest';
import { findOrCreateOAuthUser, verifyCredentials } from '@/lib/server/users';

// next-auth v4 builds callback URLs from NEXTAUTH_URL, or from the request's host when
// AUTH_TRUST_HOST is set; without either it cannot work behind an unknown host.
if (!env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= 'true';

function signInError(code: SignInErrorCode): never {
  // next-auth v4 hands the message to the client as `error`; the form maps it to text.
  throw new Error(code);
}

function oauthProviders(): Provider[] {
  const providers: Provider[] = [];
  if (env.GITHUB_ID && env.GITHUB_SECRET) {
    providers.push(GitHubProvider({ clientId: env.GITHUB_ID, clientSecret: env.GITHUB_SECRET }));
  }
  if (env.DISCORD_ID && env.DISCORD_SECRET) {
    providers.push(DiscordProvider({ clientId: env.DISCORD_ID, clientSecret: env.DISCORD_SECRET }));
  }
  return providers;
}

/** OAuth providers that are configured, for the sign-in page's buttons. */
export function enabledOAuthProviders(): { id: string; name: string }[] {
  return oauthProviders().map((p) => ({ id: p.id, name: p.name }));
}

export const authOptions: NextAuthOptions = {
  secret: env.AUTH_SECRET,
  session: { strategy: 'jwt', maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: '/signin' },
  providers: [
    CredentialsProvider({
      name: 'Username',
      credentials: { username: { label: 'Username', type: 'text' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) signInError('Invalid');
        let result: Awaited<ReturnType<typeof verifyCredentials>>;
        try {
          result = await verifyCredentials(parsed.data);
        } catch (error) {
          // next-auth would put this error's message (driver details) in the URL it returns;
          // the sign-in route turns this fixed code into a 503 instead (limits/sign-in.ts).
          console.error('[auth] checking credentials failed', error);
          signInError('Unavailable');
        }
        if (!result.ok) signInError(result.error);
        return { id: result.user.id, name: result.user.username };
      },
    }),
    ...oauthProviders(),
  ],
  callbacks: {
    async jwt({ token, user, account, profile }) {
      if (account && account.type === 'oauth') {
        const suggested = (profile as { login?: string; username?: string } | undefined)?.login ?? user?.name ?? 'player';
        const player = await findOrCreateOAuthUser({
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          suggestedName: (profile as { username?: string } | undefined)?.username ?? suggested,
        });
        token.uid = player.id;
        token.name = player.username;
      } else if (user) {
        token.uid = user.id;
        token.name = user.name;
      }
      // Signing in (or up) claims what this browser played as a guest.
      if (user && token.uid) await claimGuestGamesOnSignIn(token.uid);
      return token;
    },
    session({ session, token }) {
      if (token.uid) session.user = { id: token.uid, name: token.name ?? '' };
      return session;
    },
  },
};

export type SessionUser = { id: string; name: string };

// next-auth's session cookie: `__Secure-` prefixed when the site is served over https.
const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'] as const;

/**
 * The signed-in player, or null. Works in server components and route handlers.
 *
 * Reads the session by decrypting its cookie directly (the JWE is authenticated and carries its
 * expiry), which is what getServerSession does too, minus running next-auth's whole request
 * handler: that handler cost ~2 ms of CPU per API request under load.
 */
export async function getSessionUser(): Promise<SessionUser | null> {
  const jar = await cookies();
  const raw = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!raw) {
    // An oversized token is split into numbered chunks; leave those to next-auth.
    if (!SESSION_COOKIES.some((name) => jar.has(`${name}.0`))) return null;
    const session = await getServerSession(authOptions);
    return session?.user?.id ? { id: session.user.id, name: session.user.name ?? '' } : null;
  }
  return sessionUserOf(raw);
}

/** The player a session token names, or null when it is not a valid one of ours. */
async function sessionUserOf(raw: string): Promise<SessionUser | null> {
  const token = await decode({ token: raw, secret: authOptions.secret ?? '' }).catch(() => null);
  return token?.uid ? { id: token.uid, name: token.name ?? '' } : null;
}

/** The player of the session a next-auth response sets (a successful sign-in), or null. */
export async function sessionSetBy(response: Response): Promise<SessionUser | null> {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';');
    const eq = pair.indexOf('=');
    if (!(SESSION_COOKIES as readonly string[]).includes(pair.slice(0, eq))) continue;
    const user = await sessionUserOf(pair.slice(eq + 1));
    if (user) return user;
  }
  return null;
}

async function claimGuestGamesOnSignIn(userId: string) {
  const guestId = await readGuestId();
  if (!guestId) return;
  try {
    await claimGuestGames({ userId, guestId });
  } catch (error) {
    // A failed claim must not block signing in; the games stay claimable for 24 hours.
    console.error('[auth] claiming guest games failed', error);
  }
}
