import { z } from 'zod';

// Shared by the forms (instant feedback) and the server (the real check).
export const USERNAME_RULES = '3–20 characters: letters, digits, _ or -';

export const usernameSchema = z
  .string({ error: 'Enter a username' })
  .trim()
  .min(3, `Username must be ${USERNAME_RULES}`)
  .max(20, `Username must be ${USERNAME_RULES}`)
  .regex(/^[A-Za-z0-9_-]+$/, `Username must be ${USERNAME_RULES}`);

// Never trimmed or truncated: every character the player typed counts. Lengths are in characters
// (code points, as zod 4 counts them), not UTF-16 units: four emoji are four characters.
export const passwordSchema = z
  .string({ error: 'Enter a password' })
  .min(8, 'Password is too weak: use at least 8 characters')
  .max(128, 'Password is too long: use at most 128 characters');

export const signUpSchema = z.object({ username: usernameSchema, password: passwordSchema });
export type SignUpInput = z.infer<typeof signUpSchema>;

export const signInSchema = z.object({
  username: z.string().trim().min(1, 'Enter your username').max(20, 'Wrong username or password'),
  password: z.string().min(1, 'Enter your password').max(128, 'Wrong username or password'),
});

/** The lower-case key that makes usernames unique regardless of case. */
export function usernameKey(username: string): string {
  return username.trim().toLowerCase();
}

/** Codes the sign-in form turns into messages; next-auth passes the thrown code through. */
export const SIGN_IN_ERRORS = {
  // One message for an unknown name and a wrong password: sign-in does not confirm which
  // names exist (sign-up still says when a name is taken).
  CredentialsInvalid: 'Wrong username or password.',
  Invalid: 'Enter your username and password.',
  RateLimited: 'Too many sign-in attempts. Wait a few minutes, then try again.',
  Unavailable: 'Signing in is unavailable for a moment. Please try again shortly.',
  // An OAuth login of a banned account that was deleted (lib/server/account/tombstones.ts).
  Banned: 'This login belonged to a banned account: it cannot make a new one.',
} as const;
export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS;
