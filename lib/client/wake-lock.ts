/** The parts of the Screen Wake Lock API used here (absent from older browsers and insecure pages). */
type Sentinel = { readonly released: boolean; release(): Promise<void> };
export type WakeLockLike = { request(type: 'screen'): Promise<Sentinel> };
type Doc = {
  readonly visibilityState: DocumentVisibilityState;
  addEventListener(type: 'visibilitychange', fn: () => void): void;
  removeEventListener(type: 'visibilitychange', fn: () => void): void;
};

/**
 * Keeps the screen on until the returned function is called. A hidden page loses its lock (the
 * browser releases it), so it is asked for again each time the page is seen. Where the API is
 * missing or refuses (battery saver, a permissions policy) nothing happens: a dimmed screen is
 * an annoyance, not an error to show.
 */
export function keepScreenAwake(lock: WakeLockLike | undefined, doc: Doc): () => void {
  if (!lock) return () => {};
  let sentinel: Sentinel | null = null;
  let asking = false;
  let done = false;
  const acquire = () => {
    if (done || asking || doc.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
    asking = true;
    lock.request('screen').then(
      (s) => {
        asking = false;
        if (done) void s.release().catch(() => {});
        else sentinel = s;
      },
      () => {
        asking = false;
      },
    );
  };
  acquire();
  doc.addEventListener('visibilitychange', acquire);
  return () => {
    done = true;
    doc.removeEventListener('visibilitychange', acquire);
    if (sentinel && !sentinel.released) void sentinel.release().catch(() => {});
    sentinel = null;
  };
}
