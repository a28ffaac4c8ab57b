// One line per table for the db:* scripts: rows and checksum.

/** @param {Record<string, { rows: number; sum: string }>} tables */
export function summary(tables) {
  return Object.entries(tables)
    .map(([name, t]) => `  ${name.padEnd(22)} ${String(t.rows).padStart(10)} rows  checksum ${t.sum}`)
    .join('\n');
}
