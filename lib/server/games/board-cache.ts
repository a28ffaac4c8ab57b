import 'server-only';

/**
 * Board pages as everyone sees them (the rows and the next cursor, not the viewer's own row),
 * kept for a moment per process: a board's first page is what every result screen and every
 * visitor reads, and at the evening's read rate one page was read from the database dozens of
 * times a second (docs/capacity.md, bench:verify). Concurrent readers of one page share one read.
 *
 * A change to the boards committed by this process (a stored best, a claim, an approval or a
 * rejection, a ban or its lifting, a rename, a deletion) starts a new generation, so the player
 * who just set a best sees it on their next read here. What other instances write, and what
 * retention removes, shows within `BOARD_PAGE_TTL_MS`.
 */
export const BOARD_PAGE_TTL_MS = 1_000;
/** Pages kept at once (boards × periods × the first pages people page through). */
const MAX_PAGES = 512;

type Kept = { at: number; generation: number; value: Promise<unknown> };
// On globalThis: Next builds route handlers and pages apart, each with its own copy of this module,
// and a ban or a best stored by a route left the board page's copy serving its page a second more.
const holder = globalThis as typeof globalThis & { __linefallBoardPages?: { generation: number; pages: Map<string, Kept>; clock: { now(): number } } };
const cache = (holder.__linefallBoardPages ??= { generation: 0, pages: new Map(), clock: { now: () => performance.now() } });
const pages = cache.pages;

/** The cache's clock: monotonic, so a wall clock stepped back keeps no page longer. Tests hold it still. */
export const boardCacheClock = cache.clock;

/** Bests changed here: no page read before is served again. */
export function boardsChanged(): void {
  cache.generation += 1;
}

const fresh = (page: { at: number; generation: number }, now: number) => page.generation === cache.generation && now - page.at < BOARD_PAGE_TTL_MS;

/** The page `key` names (it must say everything the page depends on), read by `load` when not kept. */
export function cachedBoardPage<T>(key: string, load: () => Promise<T>): Promise<T> {
  const now = boardCacheClock.now();
  const hit = pages.get(key);
  if (hit && fresh(hit, now)) return hit.value as Promise<T>;
  pages.delete(key);
  if (pages.size >= MAX_PAGES) {
    // Stale pages go first, then the oldest (a Map keeps insertion order).
    for (const [k, page] of pages) if (!fresh(page, now)) pages.delete(k);
    if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
  }
  const value = load();
  const entry = { at: now, generation: cache.generation, value };
  // A failed read is not kept: the next reader tries again.
  value.catch(() => {
    if (pages.get(key) === entry) pages.delete(key);
  });
  pages.set(key, entry);
  return value;
}
