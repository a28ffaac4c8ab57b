import 'server-only';
import { RANKED_MODE_NAMES, type Mode } from '@/lib/engine';
import { getBoard, type BoardRow } from '@/lib/server/games/boards';

/** This week's top games of every mode, for the home page: the first rows of each weekly board. */
export async function getWeeklyTop(options: { limit: number; now?: Date }): Promise<Array<{ mode: Mode; week: string; rows: BoardRow[] }>> {
  const boards = await Promise.all(RANKED_MODE_NAMES.map((mode) => getBoard({ mode, period: 'week', limit: options.limit, now: options.now })));
  return boards.map((b) => ({ mode: b.mode, week: b.bucket, rows: b.rows }));
}
