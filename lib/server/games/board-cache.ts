import 'server-only';

/**
 * Board pages as everyone sees them (the rows and the next cursor, not the viewer's own row),
 * kept for a moment per process: a board's first page is what every result screen and every
 * visitor reads, and at the evening's read rate one page was read from the database dozens of
 * times a second (docs/capacity.md, bench:verify). Concurrent readers of one page share one read.
 *
 * A best written by this process (a stored game, a claim or an approval, a ban, a rebuild)
 * starts a new generation, so the player who just set it sees it on their next read here. What
 * other instances write, and what a cascade removes (a deleted account), shows within
 * `BOARD_PAGE_TTL_MS`.
 */
export const BOARD_PAGE_TTL_MS = 1_000;
/** Pages kept at once (boards × periods × the first pages people page through); the oldest go first. */
const MAX_PAGES = 512;

let generation = 0;
const pages = new Map<string, { at: number; generation: number; value: Promise<unknown> }>();

/** Bests changed here: no page read before is served again. */
export function boardsChanged(): void {
  generation += 1;
}

/** The page `key` names (it must say everything the page depends on), read by `load` when not kept. */
export function cachedBoardPage<T>(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
  const hit = pages.get(key);
  if (hit && hit.generation === generation && now - hit.at < BOARD_PAGE_TTL_MS) return hit.value as Promise<T>;
  pages.delete(key);
  // A Map keeps insertion order: the first key is the oldest page.
  if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
  const value = load();
  const entry = { at: now, generation, value };
  // A failed read is not kept: the next reader tries again.
  value.catch(() => {
    if (pages.get(key) === entry) pages.delete(key);
  });
  pages.set(key, entry);
  return value;
}
