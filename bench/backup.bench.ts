// `npm run bench:backup -- [--games=100000,1000000] [--db=pglite|postgres|both] [--into=same,other]`: seeds games
// (bench/api/seed.ts, each with a real Sprint replay), then times a backup (npm run db:backup's
// code path), its size, a restore into a fresh database of the same kind, and the move to the
// other kind. On PGlite the backup holds the only session: its duration is how long a running
// site's requests wait (docs/decisions/0009-backups.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspectBackup } from '@/lib/db/backup/inspect.js';
import { restoreInto } from '@/lib/db/backup/load.js';
import { backupToFile } from '@/lib/db/backup/take.js';
import { openSql } from '@/lib/db/connect.js';
import { applyMigrations } from '@/lib/db/migrate.js';
import { resolveDbTarget } from '@/lib/db/target.js';
import { encodeReplay } from '@/lib/engine';
import { throwawayDatabase } from '@/tests/support/postgres';
import { botGame } from '@/tests/support/replays';
import { seedGames } from '@/bench/api/seed';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const SIZES = arg('games', '100000').split(',').map(Number);
const DBS = (arg('db', 'both') === 'both' ? ['pglite', 'postgres'] : [arg('db', 'both')]) as ('pglite' | 'postgres')[];
const INTO = arg('into', 'same,other').split(',');
const scratch = mkdtempSync(path.join(tmpdir(), 'linefall-bench-backup-'));
const replay = encodeReplay(botGame('sprint', 'bench-sample').replay);

async function database(kind: 'pglite' | 'postgres') {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(scratch, 'db-'));
    return { url: `pglite:${path.join(dir, 'pglite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  return throwawayDatabase('linefall_bench_backup');
}

const seconds = (from: number) => (performance.now() - from) / 1000;
const rows: string[] = [];
try {
  for (const games of SIZES) {
    for (const kind of DBS) {
      const source = await database(kind);
      const sql = await openSql(resolveDbTarget(source.url));
      await applyMigrations(sql);
      let t = performance.now();
      await seedGames(sql, { games, players: Math.max(100, games / 50), replay });
      await sql.close();
      console.log(`${kind}: seeded ${games} games in ${seconds(t).toFixed(0)} s (replay ${replay.length} chars)`);

      const file = path.join(scratch, `${kind}-${games}.ndjson.gz`);
      t = performance.now();
      const backup = await backupToFile(resolveDbTarget(source.url), file);
      const backupSeconds = seconds(t);
      // backupToFile reads the file through once more to prove it whole; without that pass, the
      // dump alone is how long a site on PGlite makes its requests wait.
      t = performance.now();
      await inspectBackup(file);
      const dumpSeconds = backupSeconds - seconds(t);
      const other = kind === 'pglite' ? 'postgres' : 'pglite';
      const restored: string[] = [];
      for (const into of [kind, other] as const) {
        if (!INTO.includes(into === kind ? 'same' : 'other')) {
          restored.push('-');
          continue;
        }
        const target = await database(into);
        t = performance.now();
        await restoreInto(resolveDbTarget(target.url), file);
        restored.push(seconds(t).toFixed(1));
        await target.drop();
      }
      await source.drop();
      rmSync(file);
      const row = `| ${kind} | ${games.toLocaleString('en')} | ${dumpSeconds.toFixed(1)} | ${backupSeconds.toFixed(1)} | ${(backup.bytes / 1e6).toFixed(1)} | ${restored[0]} | ${restored[1]} (${other}) |`;
      console.log(row);
      rows.push(row);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log('\n| source | games | dump s | backup s (dump + check) | file MB | restore s, same kind | restore s, other kind |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
