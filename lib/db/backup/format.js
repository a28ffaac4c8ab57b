// The backup file: gzip of one JSON value per line. Control lines are arrays, row lines are
// the objects PostgreSQL's row_to_json renders, copied byte for byte, so a file written from
// PGlite (PostgreSQL 17) loads into PostgreSQL 15 and back. See docs/decisions/0009-backups.md.
//   ["linefall-backup", {version, createdAt, server, migrations: [{name, checksum}]}]
//   ["table", {name, columns}]     then its rows, one object per line
//   ["sequence", {name, lastValue, isCalled}]
//   ["done", {tables: {name: {rows, sum}}}]   absent = the file is truncated
import { createHash } from 'node:crypto';

export const FORMAT = 'linefall-backup';
export const FORMAT_VERSION = 1;
/** What the backup tools name their files: sortable by time, recognisable when pruning. */
export const FILE_PATTERN = /^linefall-\d{8}T\d{6}Z\.ndjson\.gz$/;

/** A file name for a backup taken at `when`. */
export function backupFileName(when = new Date()) {
  return `linefall-${when.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.ndjson.gz`;
}

/**
 * A table's checksum: the sum of the first 60 bits of each row's md5. Order does not matter,
 * so the source, the file and the target can each compute it in their own order, and
 * `sumSql` computes the same number in the database (no row leaves it).
 * @param {string} rowJson
 */
export function rowDigest(rowJson) {
  return BigInt(`0x${createHash('md5').update(rowJson).digest('hex').slice(0, 15)}`);
}

/** @param {string} table quoted identifier */
export const sumSql = (table) =>
  `SELECT count(*)::text AS rows, coalesce(sum(('x' || substr(md5(row_to_json(t)::text), 1, 15))::bit(60)::bigint), 0)::text AS sum FROM ${table} t`;

/** @param {string} name */
export const quoteIdent = (name) => `"${name.replace(/"/g, '""')}"`;

/** @typedef {{ rows: number; sum: string }} TableDigest */
/** @typedef {{ name: string; checksum: string }} MigrationRef */
/** @typedef {{ version: number; createdAt: string; server: string; migrations: MigrationRef[] }} BackupHeader */
