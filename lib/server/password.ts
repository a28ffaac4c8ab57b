import 'server-only';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id minimum: 19 MiB of memory, 2 iterations, 1 lane. ~5 ms per hash here.
// Algorithm 2 is Argon2id (the package's const enum cannot be imported under isolatedModules).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Passwords are hashed and compared in Unicode normal form NFKC, so é typed as one code point
 * or as e + a combining accent (different keyboards, different systems) is the same password.
 */
const normal = (password: string) => password.normalize('NFKC');

export function hashPassword(password: string): Promise<string> {
  return hash(normal(password), OPTIONS);
}

// Verified against when there is no account (or no password) to check, so that an unknown
// name costs the same argon2 work as a wrong password and timing does not tell them apart.
let dummy: Promise<string> | null = null;
const dummyHash = () => (dummy ??= hash(`no account ${Math.random()}`, OPTIONS));

export type PasswordCheck = { ok: boolean; rehash: string | null };

/**
 * Whether `password` matches `passwordHash` (null: no account; the same work is done against a
 * dummy hash). Parameters are read from the stored PHC string, so older hashes keep verifying.
 *
 * Hashes stored before normalisation are of the text exactly as typed: when the normal form
 * does not match and differs from what was typed, the typed text is tried once more, and a
 * match returns `rehash`, the normal-form hash to store in its place (after which only the
 * first try is ever needed for that account).
 */
export async function checkPassword(passwordHash: string | null, password: string): Promise<PasswordCheck> {
  const stored = passwordHash ?? (await dummyHash());
  const normalized = normal(password);
  if ((await verify(stored, normalized)) && passwordHash) return { ok: true, rehash: null };
  if (normalized === password) return { ok: false, rehash: null };
  const legacy = await verify(stored, password);
  if (!legacy || !passwordHash) return { ok: false, rehash: null };
  return { ok: true, rehash: await hashPassword(password) };
}
