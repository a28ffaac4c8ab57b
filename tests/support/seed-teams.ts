// Ranked 2v2 ratings for e2e tests, on the database of a server that is not running yet:
//
//   DATABASE_URL=pglite:/tmp/x npx tsx --conditions=react-server tests/support/seed-teams.ts
//
// "duo" has played their placement sets and is settled (on the board); "newbie" is provisional
// (off it). Prints { users: {name: id} } as JSON.
import { getDb } from '@/lib/server/db';
import { TEAMS_MODE } from '@/lib/server/versus/team-ratings';
import { createUser } from '@/lib/server/users';

const PLAYERS = [
  { name: 'duo', rating: 1712.4, rd: 70, matches: 14, wins: 10 },
  { name: 'newbie', rating: 1550, rd: 240, matches: 2, wins: 2 },
];

async function main(): Promise<void> {
  const db = await getDb();
  const now = new Date();
  const users: Record<string, string> = {};
  for (const p of PLAYERS) {
    const created = await createUser({ username: p.name, password: 'ranked-teams-pw-9' });
    if (!created.ok) throw new Error(`${p.name}: ${created.error}`);
    users[p.name] = created.user.id;
    await db.versusRating.create({
      data: { userId: created.user.id, mode: TEAMS_MODE, rating: p.rating, rd: p.rd, vol: 0.06, matches: p.matches, wins: p.wins, updatedAt: now, ratedAt: now },
    });
  }
  process.stdout.write(`${JSON.stringify({ users })}\n`);
  process.exit(0);
}

if (process.argv[1]?.endsWith('seed-teams.ts')) await main();
