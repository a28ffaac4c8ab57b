import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/lib/server/env';

let transport: Transporter | null = null;

/** Whether reset and verification mails can be sent (SMTP_URL set); otherwise recovery codes are the way back in. */
export const mailConfigured = () => Boolean(env.SMTP_URL);

/**
 * Links in mail are built on NEXTAUTH_URL, never on the request's Host header: a forged Host
 * would otherwise mail a real player a reset link to someone else's site (lib/env.js requires
 * NEXTAUTH_URL with SMTP_URL).
 */
export function siteLink(path: string): string {
  return new URL(path, env.NEXTAUTH_URL).toString();
}

export async function sendMail(message: { to: string; subject: string; text: string }): Promise<void> {
  if (!env.SMTP_URL) throw new Error('mail is not configured (SMTP_URL)');
  transport ??= nodemailer.createTransport(env.SMTP_URL);
  const from = env.MAIL_FROM ?? `Linefall <no-reply@${new URL(env.NEXTAUTH_URL ?? 'http://localhost').hostname}>`;
  await transport.sendMail({ from, ...message });
}
