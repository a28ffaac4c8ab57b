// `npm run backfill:attack`: measures the attack, garbage cleared and lines sent of feature rows
// written before they were kept (lib/server/integrity/backfill.ts). Safe to run again, and
// alongside the site on PostgreSQL; the embedded PGlite database opens in one process only, so
// stop the server first there.
import { backfillAttack } from '@/lib/server/integrity/backfill';

const started = Date.now();
const { updated, unreadable } = await backfillAttack();
console.log(`${updated} rows measured, ${unreadable} unreadable (left unmeasured), in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(0);
