import 'server-only';
import { isUniqueViolation } from '@/lib/db/errors';
import { usernameKey, type SignUpInput } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { checkPassword, hashPassword } from '@/lib/server/password';
import { isBuried, nameTombstone, oauthTombstone } from '@/lib/server/account/tombstones';

/** What the rest of the app may know about a player. */
export type PublicUser = { id: string; username: string };
const publicFields = { id: true, username: true } as const;

export type CreateUserResult = { ok: true; user: PublicUser } | { ok: false; error: 'UsernameTaken' | 'UsernameBanned' };

/** Input must already have passed signUpSchema. */
export async function createUser(input: SignUpInput): Promise<CreateUserResult> {
  const db = await getDb();
  // A name a renamed player left behind leads to them for a while (account/username.ts).
  const held = await db.usernameRedirect.findFirst({ where: { oldKey: usernameKey(input.username), expiresAt: { gt: new Date() } }, select: { oldKey: true } });
  if (held) return { ok: false, error: 'UsernameTaken' };
  if (await isBuried([nameTombstone(input.username)])) return { ok: false, error: 'UsernameBanned' };
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.user.create({
      data: { username: input.username, usernameKey: usernameKey(input.username), passwordHash },
      select: publicFields,
    });
    return { ok: true, user };
  } catch (error) {
    // The unique index decides, not a prior lookup: two sign-ups racing for a name get one winner.
    if (isUniqueViolation(error)) return { ok: false, error: 'UsernameTaken' };
    throw error;
  }
}

/** One error for an unknown name and a wrong password alike: sign-in does not tell which. */
export type VerifyResult = { ok: true; user: PublicUser & { sessionVersion: number } } | { ok: false; error: 'CredentialsInvalid' };

export async function verifyCredentials(input: { username: string; password: string }): Promise<VerifyResult> {
  const db = await getDb();
  const user = await db.user.findUnique({
    where: { usernameKey: usernameKey(input.username) },
    select: { ...publicFields, passwordHash: true, sessionVersion: true },
  });
  // An unknown name, or an account created through OAuth (no password), costs the same argon2
  // work as a wrong password: the answer and its timing say nothing about which it was.
  const check = await checkPassword(user?.passwordHash ?? null, input.password);
  if (!user || !check.ok) return { ok: false, error: 'CredentialsInvalid' };
  // A hash from before passwords were normalised matched the text as typed: store the normal form's.
  if (check.rehash) await db.user.update({ where: { id: user.id }, data: { passwordHash: check.rehash } });
  return { ok: true, user: { id: user.id, username: user.username, sessionVersion: user.sessionVersion } };
}

export async function getUserById(options: { id: string }): Promise<PublicUser | null> {
  const db = await getDb();
  return db.user.findUnique({ where: { id: options.id }, select: publicFields });
}

/** Whether this OAuth login belonged to a banned account that was deleted: it makes no new account. */
export async function oauthIdentityBanned(options: { provider: string; providerAccountId: string }): Promise<boolean> {
  return isBuried([oauthTombstone(options.provider, options.providerAccountId)]);
}

/** Turns an OAuth profile name into one that passes our username rules. */
function oauthUsernameBase(suggested: string): string {
  const cleaned = suggested.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 16);
  return cleaned.length >= 3 ? cleaned : `player${cleaned}`;
}

/**
 * Finds the player linked to an OAuth identity, creating a player (with a free username
 * derived from the profile) on first sign-in.
 */
export async function findOrCreateOAuthUser(options: {
  provider: string;
  providerAccountId: string;
  suggestedName: string;
}): Promise<PublicUser & { sessionVersion: number }> {
  const db = await getDb();
  const { provider, providerAccountId } = options;
  const linked = await db.account.findUnique({
    where: { provider_providerAccountId: { provider, providerAccountId } },
    select: { user: { select: { ...publicFields, sessionVersion: true } } },
  });
  if (linked) return linked.user;
  const base = oauthUsernameBase(options.suggestedName);
  for (let attempt = 0; attempt < 20; attempt++) {
    const username = attempt === 0 ? base : `${base.slice(0, 15)}-${attempt + 1}`;
    if (await isBuried([nameTombstone(username)])) continue;
    try {
      return await db.user.create({
        data: { username, usernameKey: usernameKey(username), accounts: { create: { provider, providerAccountId } } },
        select: { ...publicFields, sessionVersion: true },
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error(`could not find a free username for ${provider} account ${providerAccountId}`);
}

export async function getUserProfile(options: { id: string }) {
  const db = await getDb();
  return db.user.findUnique({ where: { id: options.id }, select: { ...publicFields, createdAt: true } });
}

/** A public profile by username, matched case-insensitively as sign-up keeps names unique. */
export async function getUserByUsername(options: { username: string }) {
  const db = await getDb();
  return db.user.findUnique({ where: { usernameKey: usernameKey(options.username) }, select: { ...publicFields, createdAt: true } });
}
