import 'server-only';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The server's password rules beyond length (lib/validations/auth.ts): NIST SP 800-63B asks to
 * refuse passwords found in breach corpora and ones derived from the service or the username.
 * The list is zxcvbn-ts's maintained common-password corpus (~49k, ranked by frequency in
 * leaks); only entries of 8+ characters can pass our length rule, so only those are kept.
 */
let common: Set<string> | null = null;
function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].filter((p) => p.length >= 8).map((p) => p.toLowerCase()));
  return common;
}

/** Null when acceptable, otherwise the message the sign-up form shows under the password. */
export function passwordProblem(password: string, username: string): string | null {
  // Judged as it will be hashed (password.ts): in Unicode normal form NFKC.
  const lower = password.normalize('NFKC').toLowerCase();
  if (commonPasswords().has(lower)) return 'That password is one of the most common ones and easy to guess: choose another.';
  const name = username.trim().toLowerCase();
  if (name.length >= 3 && lower.includes(name)) return 'Your password must not contain your username.';
  if (lower.includes('linefall')) return 'Your password must not contain the name of this site.';
  // `u`: one character outside the Basic Multilingual Plane (an emoji) is two UTF-16 units.
  if (/^(.)\1+$/u.test(lower)) return 'A password of one repeated character is easy to guess: choose another.';
  return null;
}
