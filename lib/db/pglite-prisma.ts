// Prisma's driver adapter for the embedded database's thread (decision 0035), with transactions of
// our own. pglite-prisma-adapter 0.6.1 ends a transaction through a promise whose rejection it
// catches once the transaction has begun: a COMMIT that PostgreSQL refused (a deferred constraint,
// a serialization failure) looked like success to Prisma, so a write the database did not keep was
// reported stored. Its statements (and its reading of PostgreSQL's errors) are kept as they are.
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { PgliteThread, PgliteTransaction } from '@/lib/db/pglite-client';

type Adapter = Awaited<ReturnType<PrismaPGlite['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;
type PgliteArg = ConstructorParameters<typeof PrismaPGlite>[0];

/** The adapter on a session (the database, or one transaction): PGlite's calls as it makes them, rows decoded as it asks. */
const adapterOn = (session: unknown) => new PrismaPGlite(session as PgliteArg).connect();

/** A Prisma adapter factory whose transactions report a failed COMMIT or ROLLBACK as the failure it is. */
export class PgliteThreadAdapter extends PrismaPGlite {
  constructor(private readonly thread: PgliteThread) {
    super(thread.prismaView() as unknown as PgliteArg);
  }

  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const thread = this.thread;
    return {
      provider: adapter.provider,
      adapterName: adapter.adapterName,
      queryRaw: (query) => adapter.queryRaw(query),
      executeRaw: (query) => adapter.executeRaw(query),
      executeScript: (script) => adapter.executeScript(script),
      getConnectionInfo: () => adapter.getConnectionInfo?.() ?? { supportsRelationJoins: true },
      dispose: () => adapter.dispose(),
      // The isolation level is PostgreSQL's default (read committed) on the one session: nothing
      // else runs beside a transaction there, so no stronger level changes what it sees.
      startTransaction: () => begin(thread),
    };
  }
}

/**
 * Begins a transaction on the thread and answers once inside it. Ending it answers once the thread
 * has ended it: a refused COMMIT (or a ROLLBACK that failed) rejects, as Prisma must hear it.
 */
function begin(thread: PgliteThread): Promise<Transaction> {
  return new Promise((resolve, reject) => {
    let finish: (rollback: boolean) => void = () => {};
    const finished = new Promise<boolean>((r) => (finish = r));
    const outcome = thread.transaction(async (session: PgliteTransaction) => {
      const statements = await adapterOn(session);
      const end = async (rollback: boolean) => {
        finish(rollback);
        await outcome;
      };
      resolve({
        provider: statements.provider,
        adapterName: statements.adapterName,
        options: { usePhantomQuery: true },
        queryRaw: (query) => statements.queryRaw(query),
        executeRaw: (query) => statements.executeRaw(query),
        commit: () => end(false),
        rollback: () => end(true),
      });
      if (await finished) await session.rollback();
    }, 'prisma');
    // Before the transaction began (a BEGIN that failed), the caller of begin hears why; after,
    // `reject` does nothing and commit or rollback rethrows it.
    outcome.catch(reject);
  });
}
