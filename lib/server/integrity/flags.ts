import 'server-only';
import { z } from 'zod';
import { Prisma } from '@/lib/generated/prisma/client';
import { getDb } from '@/lib/server/db';
import { logAction, type Actor } from '@/lib/server/moderation/audit';
import { canModerate } from '@/lib/server/moderation/roles';
import type { Evidence } from '@/lib/server/integrity/judge';

const medians = z.object({
  games: z.number(), pps: z.number(), pressesPerSecond: z.number(), reactionTicks: z.number().nullable(), tapShare: z.number(), reactionShare: z.number(),
});
const ref = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('solo'), gameId: z.string() }),
  z.object({ kind: z.literal('versus'), matchId: z.string(), game: z.number(), seat: z.number() }),
]);
/** The evidence column as the judge wrote it; read back through this, never cast. */
const evidenceSchema = z.object({ games: z.number(), out: z.array(ref), earlier: medians.nullable(), recent: medians }) satisfies z.ZodType<Evidence>;

export type OpenFlag = { id: string; userId: string; player: string; mode: string; reason: string; message: string; evidence: Evidence | null; createdAt: Date };

/** Open flags, oldest first (the order to work through them). */
export async function listOpenFlags(options: { limit: number }): Promise<OpenFlag[]> {
  const db = await getDb();
  const flags = await db.integrityFlag.findMany({
    where: { status: 'open' },
    orderBy: { createdAt: 'asc' },
    take: options.limit,
    select: { id: true, userId: true, mode: true, reason: true, message: true, evidence: true, createdAt: true, user: { select: { username: true } } },
  });
  return flags.map(({ user, evidence, ...f }) => ({ ...f, player: user.username, evidence: evidenceSchema.safeParse(evidence).data ?? null }));
}

export type FlagDecision = 'dismissed' | 'confirmed';
export type FlagOutcome =
  | { ok: true; status: FlagDecision }
  | { ok: false; status: number; code: 'flag_not_found' | 'flag_decided' | 'own_flag' | 'forbidden'; message: string };

/**
 * A moderator's answer to a flag: dismissed (the games are human after all) or confirmed (the
 * moderator then bans, rejects or voids with the usual actions: a confirmation itself takes
 * nothing away). The decision, its note and the audit entry are one transaction, which reads the
 * moderator's role again (a role taken away a moment ago counts); nobody decides on a flag about
 * themselves.
 */
export async function decideFlag(options: { flagId: string; decision: FlagDecision; note: string; actor: Actor; now?: Date }): Promise<FlagOutcome> {
  const { actor, decision } = options;
  const now = options.now ?? new Date();
  const db = await getDb();
  const notOwn = actor.id ? Prisma.sql`AND "userId" <> ${actor.id}` : Prisma.empty;
  const decided = await db.$transaction(async (tx) => {
    if (actor.id) {
      const moderator = await tx.user.findUnique({ where: { id: actor.id }, select: { role: true } });
      if (!moderator || !canModerate(moderator.role)) return 'forbidden' as const;
    }
    const [flag] = await tx.$queryRaw<{ userId: string; mode: string; reason: string }[]>`
      UPDATE "IntegrityFlag" SET "status" = ${decision}, "openKey" = NULL, "note" = ${options.note}, "decidedAt" = ${now}
      WHERE "id" = ${options.flagId} AND "status" = 'open' ${notOwn}
      RETURNING "userId", "mode", "reason"`;
    if (!flag) return undefined;
    await logAction(tx, {
      actor, action: decision === 'dismissed' ? 'dismiss_flag' : 'confirm_flag', targetId: flag.userId,
      reason: `${flag.reason} in ${flag.mode} (flag ${options.flagId}): ${options.note}`, now,
    });
    return flag;
  });
  if (decided === 'forbidden') return { ok: false, status: 403, code: 'forbidden', message: 'Only moderators can do this.' };
  if (decided) return { ok: true, status: decision };
  const flag = await db.integrityFlag.findUnique({ where: { id: options.flagId }, select: { userId: true, status: true } });
  if (!flag) return { ok: false, status: 404, code: 'flag_not_found', message: 'No flag with that id.' };
  if (actor.id && flag.userId === actor.id) return { ok: false, status: 403, code: 'own_flag', message: 'Nobody decides on a flag about themselves: another moderator must.' };
  return { ok: false, status: 409, code: 'flag_decided', message: `This flag was already ${flag.status}.` };
}
