import 'server-only';
import { createHmac } from 'node:crypto';
import { getDb } from '@/lib/server/db';
import { env } from '@/lib/server/env';
import { boardable } from '@/lib/server/games/describe';

/**
 * Who may play ranked versus, and whom a ranked quick match keeps apart: against accounts made
 * to farm ratings and weekly wins (two accounts of one player meeting, one leaving at once).
 */
export const RANKED_RULES = {
  /** An account this old may queue for ranked (`RANKED_ACCOUNT_AGE`, 24 h by default)… */
  minAccountAgeMs: env.RANKED_ACCOUNT_AGE,
  /** …or one with this many finished solo games on the boards (proven and played live). */
  minFinishedSoloGames: 3,
  /** Two accounts seen queueing for ranked from the same address or device within this are never paired. */
  sameOriginWindowMs: 24 * 3_600_000,
  /** The same two accounts meet in ranked (1v1 matches and 2v2 sets as opponents, together) at most this often within `pairWindowMs`. */
  maxMatchesPerPair: 3,
  pairWindowMs: 24 * 3_600_000,
} as const satisfies Record<string, number>;

export type Eligibility = { ok: true } | { ok: false; code: 'not_eligible'; message: string };

/** Whether the player may queue for ranked: not banned, and an account old enough or a few finished solo games. */
export async function rankedEligibility(options: { userId: string; now?: Date }): Promise<Eligibility> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id: options.userId }, select: { createdAt: true, bannedAt: true, banReason: true } });
  if (!user) return notEligible('Sign in again: this account no longer exists.');
  if (user.bannedAt) return notEligible(`A moderator banned this account from ranked play: ${user.banReason || 'no reason given'}.`);
  if (now.getTime() - user.createdAt.getTime() >= RANKED_RULES.minAccountAgeMs) return { ok: true };
  const finished = await db.game.count({ where: { userId: options.userId, finished: true, ...boardable } });
  if (finished >= RANKED_RULES.minFinishedSoloGames) return { ok: true };
  const readyAt = new Date(user.createdAt.getTime() + RANKED_RULES.minAccountAgeMs);
  const hours = Math.max(1, Math.ceil((readyAt.getTime() - now.getTime()) / 3_600_000));
  return notEligible(
    `Ranked versus opens to new accounts after ${RANKED_RULES.minFinishedSoloGames} finished solo games ` +
      `(you have ${finished}) or in ${hours} hour${hours === 1 ? '' : 's'}. Unranked matches and private rooms are open now.`,
  );
}

const notEligible = (message: string): Eligibility => ({ ok: false, code: 'not_eligible', message });

export type RankedEntry = { ok: true; avoid: string[] } | Extract<Eligibility, { ok: false }>;

/**
 * What the lobby needs to queue a player for ranked: whether they may, and the players they must
 * not meet now: accounts seen queueing for ranked on an address or device this player was seen on,
 * both within RANKED_RULES.sameOriginWindowMs, and opponents already met maxMatchesPerPair times in the pair
 * window, in ranked 1v1 matches and ranked 2v2 sets together. Records this sighting (an HMAC of the address and of the device id, never the address
 * itself; cleanup deletes sightings older than the window).
 */
export async function rankedEntry(options: { userId: string; address: string; device?: string | null; now?: Date }): Promise<RankedEntry> {
  const now = options.now ?? new Date();
  const eligible = await rankedEligibility({ userId: options.userId, now });
  if (!eligible.ok) return eligible;
  const db = await getDb();
  const keys = [sightingKey('address', options.address), ...(options.device ? [sightingKey('device', options.device)] : [])];
  await db.$transaction(
    keys.map((key) =>
      db.versusSighting.upsert({ where: { userId_key: { userId: options.userId, key } }, create: { userId: options.userId, key, lastSeenAt: now }, update: { lastSeenAt: now } }),
    ),
  );
  const since = new Date(now.getTime() - RANKED_RULES.sameOriginWindowMs);
  const pairSince = new Date(now.getTime() - RANKED_RULES.pairWindowMs);
  const [seen, often] = await Promise.all([
    // Anyone seen on any address or device this player was seen on within the window, not only
    // today's: moving to another network does not bring two accounts of one player together.
    db.$queryRaw<{ userId: string }[]>`
      SELECT DISTINCT o."userId"
      FROM "VersusSighting" mine
      JOIN "VersusSighting" o ON o."key" = mine."key" AND o."userId" <> mine."userId" AND o."lastSeenAt" >= ${since}
      WHERE mine."userId" = ${options.userId} AND mine."lastSeenAt" >= ${since}`,
    // Ranked 1v1 matches and ranked 2v2 sets (an opponent on the other team) count together,
    // whichever queue asks: a pair kept apart in one cannot go on meeting in the other.
    db.$queryRaw<{ opponent: string }[]>`
      SELECT met."opponent" FROM (
        SELECT o."userId" AS "opponent"
        FROM "VersusSeat" s
        JOIN "VersusSeat" o ON o."matchId" = s."matchId" AND o."seat" <> s."seat"
        JOIN "VersusMatch" m ON m."id" = s."matchId"
        WHERE s."userId" = ${options.userId} AND s."createdAt" >= ${pairSince} AND m."ranked" AND o."userId" IS NOT NULL
        UNION ALL
        SELECT o."userId" AS "opponent"
        FROM "RoomSeat" s
        JOIN "RoomSeat" o ON o."matchId" = s."matchId" AND o."team" <> s."team"
        JOIN "RoomMatch" m ON m."id" = s."matchId"
        WHERE s."userId" = ${options.userId} AND s."createdAt" >= ${pairSince} AND m."ranked" AND o."userId" IS NOT NULL
      ) met
      GROUP BY met."opponent"
      HAVING count(*) >= ${RANKED_RULES.maxMatchesPerPair}`,
  ]);
  return { ok: true, avoid: [...new Set([...seen.map((s) => s.userId), ...often.map((o) => o.opponent)])] };
}

/** A sighting's key: equal for the same address (or device), and no address in the database. */
function sightingKey(kind: 'address' | 'device', value: string): string {
  return `${kind}:${createHmac('sha256', `${env.AUTH_SECRET}:sighting`).update(value).digest('base64url')}`;
}

/** Sightings older than the window can no longer keep anyone apart (cleanup.ts). */
export async function deleteOldSightings(options: { now?: Date } = {}): Promise<number> {
  const db = await getDb();
  const { count } = await db.versusSighting.deleteMany({ where: { lastSeenAt: { lt: new Date((options.now ?? new Date()).getTime() - RANKED_RULES.sameOriginWindowMs) } } });
  return count;
}
