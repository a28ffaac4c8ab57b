// The environment, validated once by zod. next.config.js imports this, so a bad value
// fails `next build` and `next start` before any request is served. Plain JS (JSDoc
// types) because next.config.js loads it without a TypeScript step. `appEnv()` is the only
// place the app reads process.env (next.config.js hands it to parseEnv at build and start;
// scripts that run before the app, such as serve.mjs and the test runners, read their own).
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensurePrivateDir } from './db/private-dir.js';
import { resolveDbTarget } from './db/target.js';

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const BACKUP_INTERVAL = /^(\d{1,4})(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `30m`, `6h`, `1d` → milliseconds.
 * @param {string} text
 */
export function durationMs(text) {
  const [, n, unit] = BACKUP_INTERVAL.exec(text) ?? [];
  return Number(n) * UNIT_MS[/** @type {keyof typeof UNIT_MS} */ (unit)];
}

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    DATABASE_URL: optionalText.superRefine((value, ctx) => {
      try {
        resolveDbTarget(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: /** @type {Error} */ (error).message });
      }
    }),
    AUTH_SECRET: optionalText.pipe(
      z.string().min(32, 'AUTH_SECRET must be at least 32 characters (openssl rand -base64 32)').optional(),
    ),
    NEXTAUTH_URL: optionalText.pipe(z.url('NEXTAUTH_URL must be a URL like https://linefall.example').optional()),
    // Multiplies every rate limit (lib/server/limits/rules.ts): for a deployment whose gateway
    // limits already, or a benchmark measuring raw capacity from a few clients. 1 = as written.
    RATE_LIMIT_SCALE: optionalText
      .refine((v) => v === undefined || /^[1-9]\d*$/.test(v), 'RATE_LIMIT_SCALE must be a whole number, 1 or more')
      .transform((v) => (v === undefined ? 1 : Number(v))),
    // Scheduled backups (lib/db/backup/schedule.ts): where, how often, how many to keep.
    BACKUP_DIR: optionalText,
    BACKUP_EVERY: optionalText
      .refine((v) => v === undefined || BACKUP_INTERVAL.test(v), 'BACKUP_EVERY must be a duration like 30m, 6h or 1d (minutes, hours or days)')
      .transform((v) => durationMs(v ?? '1d'))
      .refine((ms) => ms >= 60_000 && ms <= 7 * 86_400_000, 'BACKUP_EVERY must be between 1m and 7d'),
    BACKUP_KEEP: optionalText
      .refine((v) => v === undefined || /^[1-9]\d{0,3}$/.test(v), 'BACKUP_KEEP must be a whole number of backups to keep, 1 to 9999')
      .transform((v) => (v === undefined ? 7 : Number(v))),
    // How old an account must be to play ranked versus without RANKED_RULES' finished solo games
    // (lib/server/versus/pairing.ts), e.g. 24h (the default) or 0m: a test server's fresh
    // accounts, or a small private site whose players all know each other.
    RANKED_ACCOUNT_AGE: optionalText
      .refine((v) => v === undefined || BACKUP_INTERVAL.test(v), 'RANKED_ACCOUNT_AGE must be a duration like 0m, 12h or 1d (minutes, hours or days)')
      .transform((v) => durationMs(v ?? '24h'))
      .refine((ms) => ms <= 30 * 86_400_000, 'RANKED_ACCOUNT_AGE must be at most 30d'),
    // Reverse proxies in front of the site (scripts/serve.mjs reads it too): behind one, the
    // scheme the browser used comes from X-Forwarded-Proto, which decides Secure cookies.
    TRUST_PROXY_HOPS: optionalText
      .refine((v) => v === undefined || /^\d+$/.test(v), 'TRUST_PROXY_HOPS must be a whole number of proxies in front of the site')
      .transform((v) => (v === undefined ? 0 : Number(v))),
    // Shared live state for several app instances (lib/server/live/cluster/redis-bus.ts, lease.ts), e.g.
    // redis://127.0.0.1:6379. Unset: one instance, everything live in its own memory.
    REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/, error: 'REDIS_URL must be a URL like redis://127.0.0.1:6379' }).optional()),
    // Resilience tests only (lib/server/db.ts): SIGUSR2 takes the database away and back.
    LINEFALL_FAULT_INJECTION: optionalText
      .refine((v) => v === undefined || v === '0' || v === '1', 'LINEFALL_FAULT_INJECTION must be 0 or 1')
      .transform((v) => v === '1'),
    // Mail for password resets and email verification (lib/server/mail.ts), e.g.
    // smtps://user:pass@mail.example:465. Unset: players recover accounts with recovery codes.
    SMTP_URL: optionalText.pipe(
      z.url({ protocol: /^smtps?$/, error: 'SMTP_URL must be a URL like smtps://user:password@mail.example:465' }).optional(),
    ),
    // The From: of those mails; defaults to Linefall <no-reply@the site's host>.
    MAIL_FROM: optionalText,
    GITHUB_ID: optionalText,
    GITHUB_SECRET: optionalText,
    DISCORD_ID: optionalText,
    DISCORD_SECRET: optionalText,
  })
  .superRefine((env, ctx) => {
    // Links in mail are built on NEXTAUTH_URL, never on a request's (forgeable) Host header.
    if (env.SMTP_URL && !env.NEXTAUTH_URL) ctx.addIssue({ code: 'custom', path: ['NEXTAUTH_URL'], message: 'set NEXTAUTH_URL too: links in mail are built on it' });
    for (const [id, secret] of /** @type {const} */ ([['GITHUB_ID', 'GITHUB_SECRET'], ['DISCORD_ID', 'DISCORD_SECRET']])) {
      if (Boolean(env[id]) !== Boolean(env[secret])) {
        ctx.addIssue({ code: 'custom', path: [env[id] ? secret : id], message: `set both ${id} and ${secret}, or neither` });
      }
    }
  });

/** @typedef {z.infer<typeof schema>} Env */

/** Where a development machine keeps the secret it generated for itself. */
export const LOCAL_SECRET_FILE = path.resolve('data/auth-secret');

/**
 * Reads the locally persisted auth secret, creating it on first use. Only for a developer's
 * own machine: a deployment sets AUTH_SECRET (and production refuses to start without it).
 */
export function ensureLocalSecret() {
  // data/ is checked first: a secret in a directory others can enter is a secret they can read.
  ensurePrivateDir(path.dirname(LOCAL_SECRET_FILE));
  if (existsSync(LOCAL_SECRET_FILE)) return readFileSync(LOCAL_SECRET_FILE, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(LOCAL_SECRET_FILE, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * @param {Record<string, string | undefined>} source
 * @param {{ requireSecret?: boolean }} [options] requireSecret: serving in production
 * @returns {Env}
 */
export function parseEnv(source, options = {}) {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new Error(`Invalid environment variables:\n${lines.join('\n')}\nSee .env.example.`);
  }
  const env = result.data;
  const orphan = ['BACKUP_EVERY', 'BACKUP_KEEP'].find((name) => !env.BACKUP_DIR && source[name]?.trim());
  if (orphan) throw new Error(`Invalid environment variables:\n  - ${orphan}: set BACKUP_DIR too (where scheduled backups go).`);
  if (options.requireSecret && env.NODE_ENV === 'production' && env.NEXTAUTH_URL) {
    // Session cookies are only marked Secure on an https site; plain http is for this machine only.
    const url = new URL(env.NEXTAUTH_URL);
    if (url.protocol !== 'https:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
      throw new Error(`Invalid environment variables:\n  - NEXTAUTH_URL: a production site must be served over https, not ${url.origin}.`);
    }
  }
  if (!env.AUTH_SECRET) {
    if (options.requireSecret && env.NODE_ENV === 'production') {
      throw new Error(
        'Invalid environment variables:\n  - AUTH_SECRET: required in production (openssl rand -base64 32).\n' +
          '`npm start` sets a locally generated one for you; a deployment must set its own.',
      );
    }
    if (env.NODE_ENV !== 'production') env.AUTH_SECRET = ensureLocalSecret();
  }
  return env;
}

/** @type {Env | undefined} */
let cached;

/**
 * The app's validated environment, read from process.env once per process. `next build` loads
 * server modules with NODE_ENV=production but serves nothing; next.config.js already demands
 * the secret when the production server starts.
 * @returns {Env}
 */
export function appEnv() {
  cached ??= parseEnv(process.env, { requireSecret: process.env.NEXT_PHASE !== 'phase-production-build' });
  return cached;
}
