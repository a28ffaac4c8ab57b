import 'server-only';
import { getServerSession, type NextAuthOptions } from 'next-auth';
import { decode, encode, type JWT } from 'next-auth/jwt';
import { cookies } from 'next/headers';
import CredentialsProvider from 'next-auth/providers/credentials';
import DiscordProvider from 'next-auth/providers/discord';
import GitHubProvider from 'next-auth/providers/github';
import type { Provider } from 'next-auth/providers/index';
import { signInSchema, type SignInErrorCode } from '@/lib/validations/auth';
import { env } from '@/lib/server/env';
import { claimGuestGames } from '@/lib/server/games/claim';
import { clearGuestCookie, readGuestId } from '@/lib/server/guest';
import { findOrCreateOAuthUser, oauthIdentityBanned, verifyCredentials } from '@/lib/server/users';
import { sessionState, type SessionState } from '@/lib/server/account/sessions';

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

const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export const authOptions: NextAuthOptions = {
  secret: env.AUTH_SECRET,
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
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
        return { id: result.user.id, name: result.user.username, sv: result.user.sessionVersion };
      },
    }),
    ...oauthProviders(),
  ],
  callbacks: {
    async signIn({ account }) {
      // A banned account's login, deleted since, does not come back as a fresh account.
      if (account?.type === 'oauth' && (await oauthIdentityBanned({ provider: account.provider, providerAccountId: account.providerAccountId }))) {
        return '/signin?error=Banned';
      }
      return true;
    },
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
        token.sv = player.sessionVersion;
      } else if (user) {
        token.uid = user.id;
        token.name = user.name;
        token.sv = user.sv ?? 0;
      }
      // A sign-in (password or provider) is the proof of identity grave steps may ask to be recent.
      if (user) token.at = Math.floor(Date.now() / 1000);
      // Signing in (or up) claims what this browser played as a guest.
      if (user && token.uid) await claimGuestGamesOnSignIn(token.uid);
      return token;
    },
    async session({ session, token }) {
      // next-auth's own /api/auth/session: a signed-out session reads as no session there too.
      const user = token.uid ? await currentUser(token) : null;
      if (user) session.user = { id: user.id, name: user.name };
      return session;
    },
  },
};

/**
 * The signed-in player as the database has them now: the name after a rename, the role, a ban's
 * reason; when this session last signed in (ms; null when its token does not say); and the session
 * version it was checked against (the one its token carries).
 */
export type SessionUser = { id: string; name: string; role: string; banReason: string | null; signedInAt: number | null; version: number };

// next-auth's session cookie: `__Secure-` prefixed when the site is served over https.
const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'] as const;

/**
 * The signed-in player, or null. Works in server components and route handlers.
 *
 * Reads the session by decrypting its cookie directly (the JWE is authenticated and carries its
 * expiry), which is what getServerSession does too, minus running next-auth's whole request
 * handler: that handler cost ~2 ms of CPU per API request under load.
 */
export async function getSessionUser(options: { fresh?: boolean } = {}): Promise<SessionUser | null> {
  const jar = await cookies();
  const raw = SESSION_COOKIES.map((name) => jar.get(name)?.value).find(Boolean);
  if (!raw) {
    // An oversized token is split into numbered chunks; leave those to next-auth.
    if (!SESSION_COOKIES.some((name) => jar.has(`${name}.0`))) return null;
    const session = await getServerSession(authOptions);
    // Its session callback has checked the version already (currentUser with the whole token).
    return session?.user?.id ? currentUser({ uid: session.user.id }, { ...options, versionChecked: true }) : null;
  }
  const token = await tokenOf(raw);
  return token ? currentUser(token, options) : null;
}

/** The signed-in player named by a raw Cookie header (the live channel's upgrade request), or null. */
export async function sessionUserFromCookies(cookies: Map<string, string>): Promise<SessionUser | null> {
  const raw = SESSION_COOKIES.map((name) => cookies.get(name)).find(Boolean);
  const token = raw ? await tokenOf(raw) : null;
  return token ? currentUser(token) : null;
}

async function tokenOf(raw: string): Promise<JWT | null> {
  const token = await decode({ token: raw, secret: authOptions.secret ?? '' }).catch(() => null);
  return token?.uid ? token : null;
}

/**
 * The token's player, unless the account is gone or its session version moved on since the
 * token was issued (password changed, "sign out everywhere"). Read through a 10-second
 * per-process cache (account/sessions.ts), so board reads by signed-in players rarely reach
 * the database; `fresh` reads it now, for writes. A token from before versions existed is 0.
 * Only a mismatch is re-read: a signed-out token costs a read per request, a current one none.
 */
async function currentUser(token: Pick<JWT, 'uid' | 'sv' | 'at'>, options: { fresh?: boolean; versionChecked?: boolean } = {}): Promise<SessionUser | null> {
  if (!token.uid) return null;
  const current = (state: SessionState | null) => state !== null && (options.versionChecked || (token.sv ?? 0) === state.version);
  let state = await sessionState({ userId: token.uid, fresh: options.fresh });
  // A mismatch may be this cache (or another process) being behind: read the row once more.
  if (!current(state) && !options.fresh) state = await sessionState({ userId: token.uid, fresh: true });
  if (!state || !current(state)) return null;
  return { id: token.uid, name: state.username, role: state.role, banReason: state.banReason, signedInAt: typeof token.at === 'number' ? token.at * 1000 : null, version: state.version };
}

/**
 * A new session cookie for the current browser after its session version changed (its own
 * password change) or its name did: the other devices stay signed out, this one stays in, with
 * the sign-in time it had (a reissue is no new proof of who is there).
 */
export async function reissueSession(response: Response, user: { id: string; name: string; sessionVersion: number; signedInAt: number | null }): Promise<void> {
  const jar = await cookies();
  const name = SESSION_COOKIES.find((n) => jar.has(n)) ?? SESSION_COOKIES[1];
  const at = user.signedInAt === null ? {} : { at: Math.floor(user.signedInAt / 1000) };
  const token = await encode({ token: { uid: user.id, name: user.name, sv: user.sessionVersion, sub: user.id, ...at }, secret: authOptions.secret ?? '', maxAge: SESSION_MAX_AGE_SECONDS });
  const secure = name.startsWith('__Secure-') ? '; Secure' : '';
  response.headers.append('set-cookie', `${name}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_SECONDS}${secure}`);
}

/** The player of the session a next-auth response sets (a successful sign-in), or null. */
export async function sessionSetBy(response: Response): Promise<{ id: string; name: string } | null> {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';');
    const eq = pair.indexOf('=');
    if (!(SESSION_COOKIES as readonly string[]).includes(pair.slice(0, eq))) continue;
    const token = await tokenOf(pair.slice(eq + 1));
    if (token?.uid) return { id: token.uid, name: token.name ?? '' };
  }
  return null;
}

async function claimGuestGamesOnSignIn(userId: string) {
  const guestId = await readGuestId();
  if (!guestId) return;
  try {
    await claimGuestGames({ userId, guestId });
    await clearGuestCookie();
  } catch (error) {
    // A failed claim must not block signing in; the games stay claimable for 24 hours.
    console.error('[auth] claiming guest games failed', error);
  }
}

/** Clears the session cookie (its account was just deleted). */
export async function endSession(response: Response): Promise<void> {
  for (const name of SESSION_COOKIES) {
    const secure = name.startsWith('__Secure-') ? '; Secure' : '';
    response.headers.append('set-cookie', `${name}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`);
  }
}
