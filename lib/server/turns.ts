import 'server-only';

/**
 * Runs the tasks given to it one after another, each starting on a turn of the event loop of its
 * own (setImmediate), so sockets are read between them. For work that arrives in bursts and holds
 * the thread while it runs: an embedded database (PGlite) executes on this thread and its promises
 * settle at once, so a burst of awaited stores is otherwise one unbroken chain of microtasks.
 * 500 versus players whose reconnect window ran out together forfeited 500 matches, whose
 * verification and storing held every socket for 2.2 s.
 */
export function oneTurnEach(): <T>(task: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = last.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(task);
    last = run.catch(() => {});
    return run;
  };
}
