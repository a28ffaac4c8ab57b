import 'server-only';
import { createEmailToken, createResetToken, RESET_TTL_MS } from '@/lib/server/account/links';
import { EMAIL_BANNED_MESSAGE, emailTombstone, isBuried } from '@/lib/server/account/tombstones';
import { mailConfigured, sendMail, siteLink } from '@/lib/server/mail';

/**
 * Mails a reset link when the address is a verified one; does nothing otherwise. Either way the
 * caller answers the same, and a mail server that fails is logged, not shown: the answer must
 * not tell whether an account exists.
 */
export async function mailResetLink(options: { email: string }): Promise<void> {
  if (!mailConfigured()) return;
  const issued = await createResetToken({ email: options.email });
  if (!issued) return;
  const link = siteLink(`/reset-password?token=${issued.token}`);
  try {
    await sendMail({
      to: issued.email,
      subject: 'Reset your Linefall password',
      text: `Someone (we hope you) asked to reset the password of ${issued.username} on Linefall.\n\nSet a new password here, within ${RESET_TTL_MS / 60_000} minutes (the link works once):\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
    });
  } catch (error) {
    console.error('[mail] sending a reset link failed', error);
  }
}

/**
 * Mails a link confirming `email` for the player; the address is stored once the link is followed.
 * An address a banned account left behind is refused at once (and again when the link is followed).
 */
export async function mailVerificationLink(options: { userId: string; username: string; email: string }): Promise<{ ok: true } | { ok: false; code: 'email_banned'; message: string }> {
  if (await isBuried([emailTombstone(options.email)])) return { ok: false, code: 'email_banned', message: EMAIL_BANNED_MESSAGE };
  const token = await createEmailToken({ userId: options.userId, email: options.email });
  await sendMail({
    to: options.email,
    subject: 'Confirm your email for Linefall',
    text: `Confirm this address for ${options.username} on Linefall, so you can reset your password by mail:\n${siteLink(`/account/email?token=${token}`)}\n\nThe link works for a day. If you did not ask for this, ignore this mail.\n`,
  });
  return { ok: true };
}
