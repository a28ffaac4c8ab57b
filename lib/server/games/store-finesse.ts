import 'server-only';
import { getDb } from '@/lib/server/db';
import { verifyOwn } from '@/lib/server/verify-pool';

/**
 * Counts a stored game's finesse faults from its stored (verified) replay and writes them on its
 * row, once: the count never comes from the client. Run after the store, off the request's
 * atomic statement, so a count that fails (a lost worker) leaves the column null and the game
 * stored as it was.
 */
export async function storeFinesse(options: { gameId: string; replay: string }): Promise<number | null> {
  let faults: number | null;
  try {
    faults = await verifyOwn('finesse', options.replay);
  } catch (error) {
    console.error(`[finesse] no count for game ${options.gameId}: ${(error as Error).message}`);
    return null;
  }
  if (faults === null) return null;
  const db = await getDb();
  await db.game.updateMany({ where: { id: options.gameId, finesseFaults: null }, data: { finesseFaults: faults } });
  return faults;
}
