// `npm run review -- list [pending|approved|rejected]`, `approve <gameId>`, `reject <gameId> "why"`:
// the reviewer's side of games held for inhuman input timing (lib/server/games/review.ts), the same
// functions /moderation calls; each decision is written to the audit log as done by the console.
// Uses the configured database (DATABASE_URL, default embedded PGlite in data/pglite, which only
// one process can open: stop the server first, or point both at PostgreSQL).
import { getDb } from '@/lib/server/db';
import { approveGame, listHeldGames, rejectGame, type ReviewOutcome } from '@/lib/server/games/review';
import { CONSOLE } from '@/lib/server/moderation/audit';

const USAGE = 'usage: npm run review -- list [pending|approved|rejected] | approve <gameId> | reject <gameId> "why"';
const STATUSES = ['pending', 'approved', 'rejected'] as const;

async function main(args: string[]): Promise<number> {
  const [command, id, note] = args;
  if (command === 'list') {
    const status = STATUSES.find((s) => s === (id ?? 'pending'));
    if (!status) return fail(USAGE);
    const games = await listHeldGames({ status, limit: 200 });
    if (games.length === 0) console.log(`no ${status} games`);
    for (const g of games) {
      console.log(`${g.id}  ${g.createdAt.toISOString()}  ${g.mode}  ${g.player ?? '(guest)'}  score ${g.score}, ${g.lines} lines, ${g.ticks} ticks`);
      console.log(`    ${g.reviewReason}: ${g.reviewMessage}${g.reviewNote ? `\n    rejected: ${g.reviewNote}` : ''}`);
    }
    return 0;
  }
  if (command === 'approve' && id) return report(await approveGame({ gameId: id, actor: CONSOLE }));
  if (command === 'reject' && id && note?.trim()) return report(await rejectGame({ gameId: id, note: note.trim(), actor: CONSOLE }));
  return fail(USAGE);
}

function report(outcome: ReviewOutcome): number {
  if (!outcome.ok) return fail(`${outcome.code}: ${outcome.message}`);
  console.log(outcome.status);
  return 0;
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

const code = await main(process.argv.slice(2));
await (await getDb()).$disconnect();
process.exit(code);
