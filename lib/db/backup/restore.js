// Loads a backup (format.js) into an empty database: the schema comes from our own migration
// files (the ones the backup's history names, checked by checksum), the rows from the file.
// Everything happens in one transaction that commits only if every table's row count and
// checksum match the file's, so a failed or interrupted restore leaves the target as it was.
import { BOOKKEEPING, readMigrations } from '../migrate.js';
import { insertableColumns, tableDigests, tablesWithRows } from './catalog.js';
import { FORMAT, FORMAT_VERSION, quoteIdent } from './format.js';
import { gunzipLines } from './lines.js';

/** @typedef {import('../migrate.js').SqlRunner} SqlRunner */

/** The target holds data and --force was not given; nothing was changed. */
export class RestoreRefusedError extends Error {
  /** @override */
  name = 'RestoreRefusedError';
}

// Rows per INSERT, and bytes: whichever comes first.
const MAX_ROWS = 1_000;
const MAX_BYTES = 4 * 1024 * 1024;

/**
 * @param {string} line
 * @returns {[string, any]}
 */
function control(line) {
  const value = JSON.parse(line);
  if (!Array.isArray(value) || typeof value[0] !== 'string') throw new Error(`backup file is damaged: expected a section, found ${line.slice(0, 80)}`);
  return /** @type {[string, any]} */ (value);
}

/**
 * Which of our migrations build the backup's schema; refuses a backup whose history names a
 * migration this checkout lacks, or one whose file was edited since.
 * @param {import('./format.js').MigrationRef[]} history
 */
export async function migrationsFor(history) {
  const local = new Map((await readMigrations()).map((m) => [m.name, m]));
  const wanted = new Set();
  for (const ref of history) {
    const mine = local.get(ref.name);
    if (!mine) throw new Error(`the backup's database had migration ${ref.name}, which this version of Linefall does not have: restore with the version that made the backup (or a newer one)`);
    if (mine.checksum !== ref.checksum) throw new Error(`migration ${ref.name} differs from the one the backup's database ran (checksum ${ref.checksum.slice(0, 12)}…): restore with the version that made the backup`);
    wanted.add(ref.name);
  }
  return [...local.values()].filter((m) => wanted.has(m.name));
}

/**
 * Removes every table, view, sequence and type of the public schema (inside the caller's
 * transaction), so the migrations start from nothing.
 * @param {SqlRunner} sql
 */
async function clearSchema(sql) {
  const { rows } = await sql.query(
    `SELECT c.relkind AS kind, c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')`,
  );
  const drop = { r: 'TABLE', p: 'TABLE', v: 'VIEW', m: 'MATERIALIZED VIEW', S: 'SEQUENCE' };
  for (const [kind, what] of Object.entries(drop)) {
    const names = rows.filter((r) => r.kind === kind).map((r) => `public.${quoteIdent(String(r.name))}`);
    if (names.length) await sql.exec(`DROP ${what} IF EXISTS ${names.join(', ')} CASCADE`);
  }
  const types = await sql.query(
    `SELECT t.typname AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = 'public' AND t.typtype IN ('e', 'd')`,
  );
  for (const r of types.rows) await sql.exec(`DROP TYPE IF EXISTS public.${quoteIdent(String(r.name))} CASCADE`);
}

/**
 * @param {SqlRunner} sql the target, outside any transaction
 * @param {NodeJS.ReadableStream} input the gzipped backup
 * @param {{ force?: boolean; log?: (line: string) => void }} [options]
 * @returns {Promise<{ header: import('./format.js').BackupHeader; tables: Record<string, import('./format.js').TableDigest> }>}
 */
export async function restoreBackup(sql, input, options = {}) {
  const log = options.log ?? (() => {});
  const lines = gunzipLines(input);
  const first = await lines.next();
  if (first.done) throw new Error('the backup file is empty');
  const [format, header] = control(first.value);
  if (format !== FORMAT || header?.version !== FORMAT_VERSION) throw new Error(`not a Linefall backup (version ${FORMAT_VERSION}): it starts with ${first.value.slice(0, 60)}`);
  const migrations = await migrationsFor(header.migrations);

  const occupied = await tablesWithRows(sql);
  if (occupied.length && !options.force) {
    throw new RestoreRefusedError(`the target database is not empty (rows in ${occupied.join(', ')}); nothing was changed. Pass --force to replace its contents.`);
  }

  await sql.exec('BEGIN');
  try {
    await sql.exec(`SET LOCAL TIME ZONE 'UTC'`);
    await clearSchema(sql);
    await sql.exec(BOOKKEEPING);
    for (const m of migrations) await sql.exec(m.sql);
    log(`schema: ${migrations.length} migration(s), up to ${migrations.at(-1)?.name ?? 'none'}`);

    /** @type {Record<string, import('./format.js').TableDigest> | null} */
    let expected = null;
    /** @type {{ insert: string; rows: string[]; bytes: number; name: string; count: number } | null} */
    let table = null;
    const flush = async () => {
      if (!table || table.rows.length === 0) return;
      await sql.query(table.insert, [`[${table.rows.join(',')}]`]);
      table.count += table.rows.length;
      table.rows = [];
      table.bytes = 0;
    };
    for await (const line of lines) {
      if (expected) throw new Error('backup file is damaged: data after its end marker');
      if (line.startsWith('{')) {
        if (!table) throw new Error('backup file is damaged: a row before any table');
        table.rows.push(line);
        table.bytes += line.length;
        if (table.rows.length >= MAX_ROWS || table.bytes >= MAX_BYTES) await flush();
        continue;
      }
      await flush();
      if (table) log(`${table.name}: ${table.count} rows`);
      table = null;
      const [kind, body] = control(line);
      if (kind === 'table') {
        const name = `public.${quoteIdent(body.name)}`;
        const present = await sql.query('SELECT to_regclass($1) IS NOT NULL AS present', [name]);
        if (!present.rows[0]?.present) throw new Error(`table ${body.name} in the backup does not exist after its migrations`);
        const columns = (await insertableColumns(sql, body.name)).map(quoteIdent).join(', ');
        const insert = `INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${name}, $1::json)`;
        table = { insert, rows: [], bytes: 0, name: body.name, count: 0 };
      } else if (kind === 'sequence') {
        await sql.query('SELECT setval($1::regclass, $2::bigint, $3)', [`public.${quoteIdent(body.name)}`, body.lastValue, body.isCalled]);
      } else if (kind === 'done') {
        expected = body.tables;
      } else {
        throw new Error(`backup file is damaged: unknown section ${kind}`);
      }
    }
    if (!expected) throw new Error('the backup file is incomplete (no end marker): it was cut short while being written or copied');

    const actual = await tableDigests(sql);
    const wrong = Object.keys({ ...expected, ...actual }).filter((name) => {
      const want = expected?.[name] ?? { rows: 0, sum: '0' };
      const got = actual[name] ?? { rows: 0, sum: '0' };
      return want.rows !== got.rows || want.sum !== got.sum;
    });
    if (wrong.length) throw new Error(`restored rows differ from the backup in ${wrong.join(', ')}; nothing was changed`);
    await sql.exec('COMMIT');
    return { header, tables: actual };
  } catch (error) {
    await sql.exec('ROLLBACK').catch(() => {});
    throw error;
  }
}
