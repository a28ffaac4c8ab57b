// Writes a backup (format.js) from a consistent snapshot (snapshot.js).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { listSequences, listTables } from './catalog.js';
import { FORMAT, FORMAT_VERSION, quoteIdent, rowDigest } from './format.js';

/** @typedef {import('../migrate.js').SqlRunner} SqlRunner */
/** @typedef {Record<string, import('./format.js').TableDigest>} Digests */

// Rows per round trip: large enough that the trip costs little, small enough to stay a few MB.
const BATCH = 2_000;

/**
 * The lines of a backup, read through cursors so a table of any size streams.
 * @param {SqlRunner} sql inside a snapshot
 * @param {Digests} digests filled in as tables are read
 */
async function* backupLines(sql, digests) {
  const history = await sql.query(`SELECT to_regclass('public._prisma_migrations') IS NOT NULL AS present`);
  if (!history.rows[0]?.present) throw new Error('this database has no migration history: it is not a Linefall database, or was never migrated');
  const migrations = await sql.query(
    `SELECT migration_name AS name, checksum FROM "_prisma_migrations"
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  const server = String((await sql.query('SELECT version() AS v')).rows[0]?.v ?? '');
  const header = { version: FORMAT_VERSION, createdAt: new Date().toISOString(), server, migrations: migrations.rows };
  yield `${JSON.stringify([FORMAT, header])}\n`;

  for (const table of await listTables(sql)) {
    const columns = (await sql.query(
      `SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
      [`public.${quoteIdent(table)}`],
    )).rows.map((r) => String(r.name));
    yield `${JSON.stringify(['table', { name: table, columns }])}\n`;
    let rows = 0;
    let sum = 0n;
    await sql.exec(`DECLARE linefall_dump NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM public.${quoteIdent(table)} t`);
    for (;;) {
      const batch = (await sql.query(`FETCH ${BATCH} FROM linefall_dump`)).rows.map((r) => String(r.j));
      if (batch.length === 0) break;
      for (const line of batch) sum += rowDigest(line);
      rows += batch.length;
      yield `${batch.join('\n')}\n`;
    }
    await sql.exec('CLOSE linefall_dump');
    digests[table] = { rows, sum: sum.toString() };
  }

  for (const name of await listSequences(sql)) {
    const { rows } = await sql.query(`SELECT last_value::text AS v, is_called FROM public.${quoteIdent(name)}`);
    yield `${JSON.stringify(['sequence', { name, lastValue: rows[0]?.v, isCalled: rows[0]?.is_called }])}\n`;
  }
  yield `${JSON.stringify(['done', { tables: digests }])}\n`;
}

/**
 * Streams a compressed backup of the snapshot into `output` (a file, an HTTP response).
 * @param {SqlRunner} sql inside a snapshot
 * @param {NodeJS.WritableStream} output
 * @returns {Promise<Digests>} rows and checksum per table, as written
 */
export async function writeBackup(sql, output) {
  /** @type {Digests} */
  const digests = {};
  await pipeline(Readable.from(backupLines(sql, digests)), createGzip({ level: 6 }), output);
  return digests;
}
