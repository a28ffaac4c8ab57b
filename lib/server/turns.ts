import 'server-only';

/**
 * Starts the tasks given to it one a turn of the event loop (setImmediate), in order, so sockets
 * are read between them. For work that arrives in bursts and holds the thread while it runs: an
 * embedded database (PGlite) executes on this thread and settles its promises at once, so a burst
 * of awaited stores was one unbroken chain of microtasks; 500 versus players whose reconnect
 * window ran out together forfeited 500 matches, whose verification and storing held every
 * socket for 2.2 s. A task does not wait for the one before it to end, only to start: on
 * PostgreSQL, whose statements wait on the network, the stores still run side by side.
 */
export function oneTurnEach(): <T>(task: () => Promise<T>) => Promise<T> {
  let lastStart: Promise<void> = Promise.resolve();
  return (task) => {
    const start = lastStart.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    lastStart = start;
    return start.then(task);
  };
}
