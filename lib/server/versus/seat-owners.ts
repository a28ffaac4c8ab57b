import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import type { Owner } from '@/lib/server/games/owner';

/**
 * The seats as they can be stored now: a seat whose account was deleted while the set was played
 * is kept with nobody in it (readers show it as deleted, as they do a seat whose account went
 * later), never its guest cookie, so nobody else's finished games are lost to a foreign key. The
 * accounts found are held (FOR KEY SHARE) until the transaction ends: a deletion meanwhile waits,
 * then takes its seats with it as it takes every stored seat of its own.
 */
export async function seatsStillOwned<S extends Owner>(tx: Prisma.TransactionClient, seats: readonly S[]): Promise<S[]> {
  const ids = [...new Set(seats.flatMap((s) => (s.userId ? [s.userId] : [])))];
  if (ids.length === 0) return [...seats];
  const found = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "User" WHERE "id" IN (${Prisma.join(ids)}) FOR KEY SHARE`;
  const present = new Set(found.map((r) => r.id));
  return seats.map((s) => (s.userId && !present.has(s.userId) ? { ...s, userId: null, guestId: null } : s));
}

