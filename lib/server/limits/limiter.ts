import 'server-only';
import { isDbUnavailable } from '@/lib/db/errors';
import { Prisma } from '@/lib/generated/prisma/client';
import { getDb, getSql } from '@/lib/server/db';
import { env } from '@/lib/server/env';
import { gatherer } from '@/lib/server/gather';
import { RULES, type RuleName } from '@/lib/server/limits/rules';
import { estimate, waitMs } from '@/lib/server/limits/window';

/** One thing to count: a rule and whom it counts (an address, a player id, an account). */
export type Check = { rule: RuleName; subject: string };
export type Verdict = { ok: true } | { ok: false; rule: RuleName; retryAfterSeconds: number };

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

type Counts = { current: number; previous: number };

/** Whether every check is within its limit, `countsOf` giving what it counted with this request. */
function decide(checks: Check[], countsOf: (index: number) => Counts, nowMs: number): Verdict {
  let worst: Verdict = { ok: true };
  for (const [i, check] of checks.entries()) {
    const counts = { ...countsOf(i), elapsedMs: windowOf(check.rule, nowMs).elapsedMs };
    const { windowMs } = RULES[check.rule];
    const limit = RULES[check.rule].limit * env.RATE_LIMIT_SCALE;
    if (estimate(windowMs, counts) <= limit) continue;
    const wait = waitMs(limit, windowMs, counts);
    const seconds = Math.max(1, Math.ceil(wait / 1000));
    if (worst.ok || seconds > worst.retryAfterSeconds) worst = { ok: false, rule: check.rule, retryAfterSeconds: seconds };
  }
  return worst;
}

export type Hit = { checks: Check[]; nowMs: number };
/** One counter row a batch adds to: `events` of the batch's requests count on it. */
type Slot = { key: string; window: number; expiresAtMs: number; events: number };
export type CountedRow = { key: string; window: number; count: number; previous: number };

const slotId = (key: string, window: number) => `${window}:${key}`;

/** A batch's counter rows and each request's turn on each of its counters (1 = the first of the batch on it). */
export type CountPlan = { slots: Map<string, Slot>; turns: Array<Array<{ id: string; turn: number }>> };

export function planCounts(batch: readonly Hit[]): CountPlan {
  const slots = new Map<string, Slot>();
  const turns = batch.map(({ checks, nowMs }) =>
    checks.map((check) => {
      const key = keyOf(check);
      const { window, expiresAtMs } = windowOf(check.rule, nowMs);
      const id = slotId(key, window);
      const slot = slots.get(id) ?? { key, window, expiresAtMs, events: 0 };
      slots.set(id, slot);
      return { id, turn: ++slot.events };
    }),
  );
  return { slots, turns };
}

/**
 * The CTEs that count a plan's rows: `counted` holds each row's new count and its previous
 * window's count as it was before the statement. A statement may read other tables beside them
 * (the submission route reads its ticket in the same round trip, games/gate.ts).
 */
export function countsSql(plan: CountPlan): Prisma.Sql {
  const all = [...plan.slots.values()];
  return Prisma.sql`${NO_FLUSH}, hits AS (
      INSERT INTO "RateLimit" ("key", "window", "count", "expiresAt")
      SELECT k, w, n, to_timestamp(e / 1000.0) AT TIME ZONE 'UTC'
      FROM unnest(${all.map((s) => s.key)}::text[], ${all.map((s) => s.window)}::int[], ${all.map((s) => s.expiresAtMs)}::float8[],
                  ${all.map((s) => s.events)}::int[]) AS t (k, w, e, n), no_flush
      -- Every batch of every instance locks its rows in this one order: two batches that share
      -- counters wait for each other instead of deadlocking.
      ORDER BY k, w
      ON CONFLICT ("key", "window") DO UPDATE SET "count" = "RateLimit"."count" + EXCLUDED."count"
      RETURNING "key", "window", "count"
    ), counted AS (
      SELECT h."key", h."window", h."count", COALESCE(p."count", 0) AS "previous"
      FROM hits h LEFT JOIN "RateLimit" p ON p."key" = h."key" AND p."window" = h."window" - 1
    )`;
}

/**
 * Each request's verdict from the rows `counted` returned, as if the batch's requests had come one
 * after another in its order: each counter row was added to once by the number of the batch's
 * requests on it, and each request is given the count it would have seen on its turn (the row's
 * new count less the requests after it). So the last slots still go to exactly as many requests
 * as the limit allows, and a batch is atomic: if the statement fails no request in it is counted.
 */
export function verdictsOf(batch: readonly Hit[], plan: CountPlan, rows: readonly CountedRow[]): Verdict[] {
  const counted = new Map(rows.map((r) => [slotId(r.key, Number(r.window)), r]));
  return batch.map(({ checks, nowMs }, i) => {
    const mine = plan.turns[i]!;
    return decide(checks, (c) => {
      const { id, turn } = mine[c]!;
      const slot = plan.slots.get(id)!;
      const row = counted.get(id);
      // The statement reads the previous window as it was before it: this batch's own requests
      // in that window (a batch that straddles the boundary) are taken from what it wrote.
      const before = counted.get(slotId(slot.key, slot.window - 1));
      return { current: Number(row?.count ?? slot.events) - slot.events + turn, previous: Number(before?.count ?? row?.previous ?? 0) };
    }, nowMs);
  });
}

async function countBatch(batch: readonly Hit[]): Promise<Verdict[]> {
  const plan = planCounts(batch);
  const sql = await getSql();
  const rows = await sql<CountedRow>(Prisma.sql`WITH ${countsSql(plan)} SELECT "key", "window", "count", "previous" FROM counted`);
  return verdictsOf(batch, plan, rows);
}

/** The most requests one statement counts: enough for any burst one round trip sees, a few KB of parameters. */
const MAX_BATCH = 512;
const counting = gatherer(countBatch, { max: MAX_BATCH, alone: (error) => !isDbUnavailable(error) });

/**
 * Counts one event against every check and says whether all of them are still within their
 * limits. Requests made while a count is being written are counted together in the next
 * statement (gather.ts), each with the count it would have seen alone, so concurrent requests
 * still cannot both take the last slot.
 */
export async function hit(checks: Check[], now = new Date()): Promise<Verdict> {
  if (checks.length === 0) return { ok: true };
  return counting({ checks, nowMs: now.getTime() });
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
