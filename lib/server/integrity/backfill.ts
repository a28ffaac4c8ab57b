import 'server-only';
import { getDb } from '@/lib/server/db';
import { replayFeatures } from '@/lib/server/integrity/features';

const BATCH = 200;

/**
 * Measures the attack, garbage cleared and lines sent of feature rows written before they were
 * kept (`npm run backfill:attack`), by re-simulating each row's stored replay as the pool's
 * `features` job does: about a millisecond a row (`npm run bench:integrity`). Rows go in id
 * order a batch at a time, so a replay that cannot be read is passed over, not retried forever;
 * it keeps null and reads as not measured. Only the three columns are written.
 */
export async function backfillAttack(options: { batch?: number } = {}): Promise<{ updated: number; unreadable: number }> {
  const db = await getDb();
  let after = '';
  let updated = 0;
  let unreadable = 0;
  for (;;) {
    const rows = await db.gameFeatures.findMany({
      where: { attack: null, id: { gt: after } },
      orderBy: { id: 'asc' },
      take: options.batch ?? BATCH,
      select: { id: true, matchId: true, gameIndex: true, seat: true, game: { select: { replay: true } } },
    });
    if (rows.length === 0) return { updated, unreadable };
    after = rows.at(-1)!.id;
    const versus = rows.filter((r) => r.matchId !== null && r.gameIndex !== null);
    const games = versus.length === 0 ? [] : await db.versusGame.findMany({
      where: { OR: versus.map((r) => ({ matchId: r.matchId!, index: r.gameIndex! })) },
      select: { matchId: true, index: true, endTick: true, replay0: true, replay1: true },
    });
    for (const r of rows) {
      const g = games.find((x) => x.matchId === r.matchId && x.index === r.gameIndex);
      const source = r.game ? { encoded: r.game.replay, endTick: null } : g ? { encoded: r.seat === 1 ? g.replay1 : g.replay0, endTick: g.endTick } : null;
      const measured = source ? replayFeatures(source.encoded, source.endTick) : null;
      if (!measured) {
        unreadable++;
        continue;
      }
      await db.gameFeatures.update({ where: { id: r.id }, data: { attack: measured.attack, garbageCleared: measured.garbageCleared, sent: measured.sent } });
      updated++;
    }
  }
}
