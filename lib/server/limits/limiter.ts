import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { getDb } from '@/lib/server/db';
import { env } from '@/lib/server/env';
import { RULES, type RuleName } from '@/lib/server/limits/rules';
import { estimate, waitMs } from '@/lib/server/limits/window';

/** One thing to count: a rule and whom it counts (an address, a player id, an account). */
export type Check = { rule: RuleName; subject: string };
export type Verdict = { ok: true } | { ok: false; rule: RuleName; retryAfterSeconds: number };

type Row = { key: string; current: number; previous: number };

function windowOf(rule: RuleName, nowMs: number) {
  const { windowMs } = RULES[rule];
  const window = Math.floor(nowMs / windowMs);
  return { window, elapsedMs: nowMs - window * windowMs, expiresAtMs: (window + 2) * windowMs };
}

const keyOf = (check: Check) => `${check.rule}:${check.subject}`;

/**
 * A CTE to join into a counter statement: its commit does not wait for the WAL to reach the
 * disk (asynchronous commit, for this transaction only). Every request counts once, so on
 * PostgreSQL each count was its own fsync: a burst of public reads queued behind WAL flushes
 * and held the pool's connections from the submissions. The count is visible to every other
 * request the moment it commits, so limits hold exactly as before; only an operating-system
 * crash can forget the last fraction of a second of counts, which merely forgives a few requests.
 * Evaluated once, before any row is written (the statement's rows are read through it).
 */
const NO_FLUSH = Prisma.sql`no_flush AS (SELECT set_config('synchronous_commit', 'off', true))`;

/** Whether every check is within its limit, `rows` having counted this request already. */
function decide(checks: Check[], rows: Row[], nowMs: number): Verdict {
  let worst: Verdict = { ok: true };
  for (const check of checks) {
    const row = rows.find((r) => r.key === keyOf(check));
    const counts = { previous: Number(row?.previous ?? 0), current: Number(row?.current ?? 0), elapsedMs: windowOf(check.rule, nowMs).elapsedMs };
    const { windowMs } = RULES[check.rule];
    const limit = RULES[check.rule].limit * env.RATE_LIMIT_SCALE;
    if (estimate(windowMs, counts) <= limit) continue;
    const wait = waitMs(limit, windowMs, counts);
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    if (worst.ok || seconds > worst.retryAfterSeconds) worst = { ok: false, rule: check.rule, retryAfterSeconds: seconds };
  }
  return worst;
}

/**
 * Counts one event against every check and says whether all of them are still within their
 * limits: one statement, so concurrent requests cannot both take the last slot.
 */
export async function hit(checks: Check[], now = new Date()): Promise<Verdict> {
  if (checks.length === 0) return { ok: true };
  const nowMs = now.getTime();
  const keys = checks.map(keyOf);
  const spans = checks.map((c) => windowOf(c.rule, nowMs));
  const windows = spans.map((w) => w.window);
  const expires = spans.map((w) => w.expiresAtMs);
  const db = await getDb();
  const rows = await db.$queryRaw<Row[]>`
    WITH ${NO_FLUSH}, hits AS (
      INSERT INTO "RateLimit" ("key", "window", "count", "expiresAt")
      SELECT k, w, 1, to_timestamp(e / 1000.0) AT TIME ZONE 'UTC'
      FROM unnest(${keys}::text[], ${windows}::int[], ${expires}::float8[]) AS t (k, w, e), no_flush
      ON CONFLICT ("key", "window") DO UPDATE SET "count" = "RateLimit"."count" + 1
      RETURNING "key", "window", "count"
    )
    SELECT h."key", h."count" AS "current", COALESCE(p."count", 0) AS "previous"
    FROM hits h LEFT JOIN "RateLimit" p ON p."key" = h."key" AND p."window" = h."window" - 1`;
  return decide(checks, rows, nowMs);
}

/** Gives back one event counted by `hit` (a sign-in attempt that turned out to be the owner's). */
export async function refund(checks: Check[], now = new Date()): Promise<void> {
  if (checks.length === 0) return;
  const nowMs = now.getTime();
  const keys = checks.map(keyOf);
  const windows = checks.map((c) => windowOf(c.rule, nowMs).window);
  const db = await getDb();
  await db.$executeRaw`
    WITH ${NO_FLUSH}
    UPDATE "RateLimit" r SET "count" = GREATEST(r."count" - 1, 0)
    FROM unnest(${keys}::text[], ${windows}::int[]) AS t (k, w), no_flush
    WHERE r."key" = t.k AND r."window" = t.w`;
}

/** Deletes counters that can no longer affect a decision (run by the periodic cleanup). */
export async function pruneLimits(now = new Date()): Promise<number> {
  const db = await getDb();
  return (await db.rateLimit.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
