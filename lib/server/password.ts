import 'server-only';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id minimum: 19 MiB of memory, 2 iterations, 1 lane. ~5 ms per hash here.
// Algorithm 2 is Argon2id (the package's const enum cannot be imported under isolatedModules).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** Parameters are read from the stored PHC string, so older hashes keep verifying. */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password);
}
