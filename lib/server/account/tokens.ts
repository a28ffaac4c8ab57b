import 'server-only';
import { createHash, randomBytes } from 'node:crypto';

/** sha256 of a secret the player holds (a link token or a recovery code): what the database keeps. */
export function digestSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A link token: 256 random bits, so a plain sha256 (no salt, no argon2) is enough to store it. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: digestSecret(token) };
}

// No 0/O or 1/I/L: codes are copied by hand from paper.
const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code like `k7mq-x2vd-9rtc` (12 characters of 31: ~59 bits). */
export function newRecoveryCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
}

/** What a player typed, in the form codes are hashed in: case, spaces and dashes do not matter. */
export function normalRecoveryCode(typed: string): string {
  const chars = typed.toLowerCase().replace(/[\s-]/g, '');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}
