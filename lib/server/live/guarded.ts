/**
 * Runs a message's handler. A handler that waits returns a promise; most answer at once and
 * return nothing (a promise per message was garbage at ten thousand batches a second). A bug,
 * thrown at once or later, goes to `failed`, and harms nothing else.
 */
export function guarded(handle: () => Promise<void> | void, failed: (error: unknown) => void): void {
  try {
    const pending = handle();
    if (pending instanceof Promise) pending.catch(failed);
  } catch (error) {
    failed(error);
  }
}
