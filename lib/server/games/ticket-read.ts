import 'server-only';
import { isDbUnavailable } from '@/lib/db/errors';
import { Prisma } from '@/lib/generated/prisma/client';
import { getSql } from '@/lib/server/db';
import { gatherer } from '@/lib/server/gather';
import { countsSql, planCounts, verdictsOf, type Check, type CountedRow, type Hit, type Verdict } from '@/lib/server/limits/limiter';

/** A ticket as a submission reads it, with whatever was already stored for it. */
export type TicketRow = {
  id: string;
  seed: string;
  mode: string;
  rulesVersion: number;
  userId: string | null;
  guestId: string | null;
  issuedAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
  abandonedAt: Date | null;
  storedGameId: string | null;
  storedDigest: string | null;
  live: boolean;
  streamDigest: string | null;
  liveUnranked: string | null;
};

/**
 * The tickets of `ids` and their stored games. The stored game is looked up ticket by ticket
 * (LATERAL): a join over the whole list could be planned as a scan of every game on PGlite,
 * which keeps no statistics for the planner.
 */
const ticketsSql = (ids: readonly string[]) => Prisma.sql`
  SELECT t."id", t."seed", t."mode", t."rulesVersion", t."userId", t."guestId", t."issuedAt", t."expiresAt", t."usedAt", t."abandonedAt",
         t."live", t."streamDigest", t."liveUnranked", g."id" AS "storedGameId", g."replayDigest" AS "storedDigest"
  FROM "GameTicket" t LEFT JOIN LATERAL (SELECT "id", "replayDigest" FROM "Game" WHERE "ticketId" = t."id") g ON true
  WHERE t."id" = ANY(${ids}::text[])`;

const inOrder = (ids: readonly string[], rows: readonly TicketRow[]) => {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id) ?? null);
};

const alone = (error: unknown) => !isDbUnavailable(error);

/**
 * Tickets and whatever was already stored for them, one round trip for all the reads that
 * arrive while the last one is in flight (gather.ts). A read only: the store re-checks the ticket
 * atomically, so reading it a moment earlier or later changes no outcome.
 */
export const readTicket = gatherer(
  async (ids: readonly string[]): Promise<Array<TicketRow | null>> => {
    const sql = await getSql();
    return inOrder(ids, await sql<TicketRow>(ticketsSql(ids)));
  },
  { max: 256, alone },
);

type Gate = Hit & { ticketId: string };

/**
 * A submission's rate-limit count and its ticket read in one statement, and one statement for all
 * the submissions that arrive while the last is in flight: both are known before the body is
 * read, and each was a round trip of its own (a plan, a driver call, a syscall each way). The
 * counts are those `hit` makes (limiter.ts); a ticket is read whether or not its request is over
 * a limit, and a refused request's read is simply not used.
 */
const gating = gatherer(
  async (batch: readonly Gate[]): Promise<Array<{ verdict: Verdict; ticket: TicketRow | null }>> => {
    const plan = planCounts(batch);
    const ids = [...new Set(batch.map((g) => g.ticketId))];
    const sql = await getSql();
    // One result set for two shapes: the tickets' rows, then the counters' rows (`kind` says which).
    type Mixed = TicketRow & CountedRow & { kind: 'ticket' | 'count' };
    const rows = await sql<Mixed>(Prisma.sql`
      WITH ${countsSql(plan)}, tickets AS (${ticketsSql(ids)})
      SELECT 'ticket' AS "kind", tickets.*, NULL::text AS "key", NULL::int AS "window", NULL::int AS "count", NULL::int AS "previous" FROM tickets
      UNION ALL
      SELECT 'count', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "key", "window", "count", "previous" FROM counted`);
    const verdicts = verdictsOf(batch, plan, rows.filter((r) => r.kind === 'count'));
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the counters' columns, null on a ticket's row
    const read = rows.filter((r) => r.kind === 'ticket').map(({ kind, key, window, count, previous, ...ticket }): TicketRow => ticket);
    const tickets = new Map(inOrder(ids, read).map((t, i) => [ids[i]!, t]));
    return batch.map((g, i) => ({ verdict: verdicts[i]!, ticket: tickets.get(g.ticketId) ?? null }));
  },
  { max: 256, alone },
);

/** Counts a submission against `checks` and reads its ticket, in one statement with its neighbours'. */
export function gateSubmission(checks: Check[], ticketId: string, now: Date): Promise<{ verdict: Verdict; ticket: TicketRow | null }> {
  return gating({ checks, nowMs: now.getTime(), ticketId });
}
