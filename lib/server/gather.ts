import 'server-only';

/**
 * Group commit for statements every request makes (a rate-limit count, a ticket read): a call on
 * an idle gatherer goes at once, as a batch of one, so nothing waits at low load; calls made while
 * a batch is in flight wait for it and go together as the next batch. Under load one statement
 * serves everything that arrived during the last one's round trip, instead of one statement (a
 * query plan, a round trip, a driver call and on PostgreSQL a syscall each way) per request.
 *
 * Every caller waits for the batch that holds its input: nothing is answered before its
 * statement has committed. A batch of several that fails is run again one input at a time
 * (unless `alone` says the failure is not an input's, a database that is away), so one input the
 * database refuses (what a client sent) fails its own call and no one else's; a failed
 * statement wrote nothing, so running it again counts nothing twice.
 */
export type Gather<In, Out> = (input: In) => Promise<Out>;

type Waiting<In, Out> = { input: In; resolve: (out: Out) => void; reject: (error: unknown) => void };

export function gatherer<In, Out>(
  run: (inputs: readonly In[]) => Promise<readonly Out[]>,
  /** The most inputs one batch takes; the rest wait for the next. */
  options: { max: number; alone?: (error: unknown) => boolean },
): Gather<In, Out> {
  if (!(options.max >= 1)) throw new Error(`a batch needs room for one input at least (max ${options.max})`);
  const queue: Array<Waiting<In, Out>> = [];
  let running = false;

  const flush = () => {
    if (running || queue.length === 0) return;
    running = true;
    const batch = queue.splice(0, options.max);
    // run() is called in a later microtask, so a throw inside it is a rejection like any other.
    void Promise.resolve()
      .then(() => run(batch.map((w) => w.input)))
      .then(
        (outs) => {
          if (outs.length !== batch.length) throw new Error(`a batch of ${batch.length} got ${outs.length} answers`);
          batch.forEach((w, i) => w.resolve(outs[i]!));
        },
      )
      .catch(async (error: unknown) => {
        if (batch.length === 1 || !(options.alone?.(error) ?? true)) return batch.forEach((w) => w.reject(error));
        await Promise.all(batch.map((w) => Promise.resolve().then(() => run([w.input])).then(([out]) => w.resolve(out!), w.reject)));
      })
      .finally(() => {
        running = false;
        flush();
      });
  };

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      flush();
    });
}
