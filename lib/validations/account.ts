import { z } from 'zod';
import { passwordSchema, usernameSchema } from '@/lib/validations/auth';

// One schema per account form, shared by the form (instant feedback) and its route (the real check).
const currentPassword = z.string().max(128, 'Wrong password').default('');

export const changePasswordSchema = z.object({ current: currentPassword, next: passwordSchema });
export const changeUsernameSchema = z.object({ username: usernameSchema });
export const reauthSchema = z.object({ password: currentPassword });

/** Typed in full to delete an account: a click alone is never enough. */
export const DELETE_CONFIRMATION = 'delete my account';
export const deleteAccountSchema = z.object({
  password: currentPassword,
  confirm: z.literal(DELETE_CONFIRMATION, { error: `Type “${DELETE_CONFIRMATION}” to confirm` }),
});

/** The form an address is stored and compared in. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export const emailSchema = z.object({ email: z.email('Enter an email address').max(254, 'That address is too long') });
export const tokenSchema = z.object({ token: z.string().min(20, 'This link is incomplete').max(100, 'This link is not valid') });
export const resetPasswordSchema = z.object({ token: tokenSchema.shape.token, password: passwordSchema });
export const recoverSchema = z.object({
  username: z.string().trim().min(1, 'Enter your username').max(20, 'No such username'),
  code: z.string().trim().min(12, 'Recovery codes look like abcd-efgh-jkmn').max(20, 'Recovery codes look like abcd-efgh-jkmn'),
  password: passwordSchema,
});
