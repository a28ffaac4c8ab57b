// Reads a backup file through without a database: proves it is whole (gzip intact, end marker
// present) and that every table's rows add up to the count and checksum it records.
import { createReadStream } from 'node:fs';
import { FORMAT, rowDigest } from './format.js';
import { gunzipLines } from './lines.js';

/**
 * @param {string} file
 * @returns {Promise<{ header: import('./format.js').BackupHeader; tables: Record<string, import('./format.js').TableDigest> }>}
 */
export async function inspectBackup(file) {
  /** @type {any} */
  let header = null;
  /** @type {Record<string, { rows: number; sum: bigint }>} */
  const seen = {};
  /** @type {Record<string, import('./format.js').TableDigest> | null} */
  let done = null;
  let current = '';
  for await (const line of gunzipLines(createReadStream(file))) {
    if (done) throw new Error(`${file} is damaged: data after its end marker`);
    if (line.startsWith('{')) {
      const t = seen[current];
      if (!t) throw new Error(`${file} is damaged: a row before any table`);
      t.rows++;
      t.sum += rowDigest(line);
      continue;
    }
    const [kind, body] = JSON.parse(line);
    if (!header) {
      if (kind !== FORMAT) throw new Error(`${file} is not a Linefall backup`);
      header = body;
    } else if (kind === 'table') {
      current = body.name;
      seen[current] = { rows: 0, sum: 0n };
    } else if (kind === 'done') {
      done = body.tables;
    }
  }
  if (!header || !done) throw new Error(`${file} is incomplete (no end marker): it was cut short while being written or copied`);
  for (const [name, want] of Object.entries(done)) {
    const got = seen[name];
    if (!got || got.rows !== want.rows || got.sum.toString() !== want.sum) throw new Error(`${file} is damaged: the rows of ${name} do not match their checksum`);
  }
  return { header, tables: done };
}
