import 'server-only';

/**
 * A small in-process cache of async results by key, for public reads that many visitors repeat
 * (a popular player's profile): at most `max` entries, each for `ttlMs`. Per process, so
 * instances sharing a database may each serve a value up to `ttlMs` old.
 */
export function memoize<T>(options: { ttlMs: number; max: number }, load: (key: string) => Promise<T>) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string, now = Date.now()): Promise<T> => {
    const hit = entries.get(key);
    if (hit && now - hit.at < options.ttlMs) return hit.value;
    entries.delete(key);
    // The oldest entry goes first (a Map keeps insertion order).
    if (entries.size >= options.max) entries.delete(entries.keys().next().value!);
    const value = load(key);
    // A failed load is not kept: the next visitor tries again.
    value.catch(() => entries.delete(key));
    entries.set(key, { at: now, value });
    return value;
  };
}
