// What the database holds, read from its catalog rather than a list in our code: tables added
// by later migrations are backed up, restored and verified without touching these tools.
import { quoteIdent, sumSql } from './format.js';

/** @typedef {import('../migrate.js').SqlRunner} SqlRunner */

/**
 * Ordinary tables of the public schema, parents before the tables whose foreign keys point
 * at them, so rows can be loaded in this order with every constraint checked as they go.
 * @param {SqlRunner} sql
 * @returns {Promise<string[]>}
 */
export async function listTables(sql) {
  const tables = (
    await sql.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
    )
  ).rows.map((r) => String(r.name));
  const edges = (
    await sql.query(
      `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
       JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = ch.relnamespace
       WHERE k.contype = 'f' AND n.nspname = 'public' AND ch.oid <> pa.oid`,
    )
  ).rows.map((r) => ({ child: String(r.child), parent: String(r.parent) }));
  /** @type {string[]} */
  const ordered = [];
  const placed = new Set();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t) && edges.every((e) => e.child !== t || placed.has(e.parent)));
    if (ready.length === 0) throw new Error(`foreign keys form a cycle among: ${tables.filter((t) => !placed.has(t)).join(', ')}`);
    for (const t of ready) {
      placed.add(t);
      ordered.push(t);
    }
  }
  return ordered;
}

/**
 * Columns a restore writes: all but generated ones, which the target computes itself.
 * @param {SqlRunner} sql
 * @param {string} table
 */
export async function insertableColumns(sql, table) {
  const { rows } = await sql.query(
    `SELECT a.attname AS name FROM pg_attribute a
     WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY a.attnum`,
    [`public.${quoteIdent(table)}`],
  );
  return rows.map((r) => String(r.name));
}

/** @param {SqlRunner} sql */
export async function listSequences(sql) {
  const { rows } = await sql.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY c.relname`,
  );
  return rows.map((r) => String(r.name));
}

/**
 * Row count and checksum of every table, computed inside the database.
 * @param {SqlRunner} sql
 * @returns {Promise<Record<string, import('./format.js').TableDigest>>}
 */
export async function tableDigests(sql) {
  /** @type {Record<string, import('./format.js').TableDigest>} */
  const digests = {};
  for (const table of await listTables(sql)) {
    const { rows } = await sql.query(sumSql(`public.${quoteIdent(table)}`));
    digests[table] = { rows: Number(rows[0]?.rows), sum: String(rows[0]?.sum) };
  }
  return digests;
}

/**
 * Tables that hold rows, apart from the migration history (a migrated empty database is empty).
 * @param {SqlRunner} sql
 */
export async function tablesWithRows(sql) {
  const found = [];
  for (const table of await listTables(sql)) {
    if (table === '_prisma_migrations') continue;
    const { rows } = await sql.query(`SELECT EXISTS (SELECT 1 FROM public.${quoteIdent(table)}) AS any`);
    if (rows[0]?.any) found.push(table);
  }
  return found;
}
