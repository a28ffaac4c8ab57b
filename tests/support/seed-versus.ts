// Stores versus matches the way the match host will: bots play real sets through the referee
// (tests/support/versus-bot.ts), and each set goes through storeMatch, which verifies it by
// re-simulating both players before storing it and moving the ratings. For e2e tests, run on the
// database of a server that is not running yet (PGlite: one process per data directory):
//
//   DATABASE_URL=pglite:/tmp/x npx tsx --conditions=react-server tests/support/seed-versus.ts < plan.json
//
// The plan: { password, users: [name…], matches: [{ id, seats: [name, name], record, ranked, minutesAgo }] }
// where `record` picks one of a few bot sets by number (a set can be stored under several ids).
// Prints { users: {name: id}, stored: [match id…] } as JSON.
import { VersusMatch, DEFAULT_HANDLING, type VersusMode } from '@/lib/engine';
import { integritySettled } from '@/lib/server/integrity/record';
import { storeMatch } from '@/lib/server/versus/store';
import { recordOf, type VersusMatchRecord } from '@/lib/server/versus/verify';
import { createUser } from '@/lib/server/users';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

export type SeedPlan = {
  password: string;
  users: string[];
  matches: Array<{ id: string; seats: [string, string]; record: number; ranked: boolean; minutesAgo: number; mode?: VersusMode }>;
};

/** A set two bots play to the end; the same seed always gives the same set. */
export function botSet(seed: string, mode: VersusMode = 'battle'): VersusMatchRecord {
  const match = new VersusMatch({ mode, seed, handling: [DEFAULT_HANDLING, DEFAULT_HANDLING] });
  playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
  return recordOf(match, seed, mode);
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const plan = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SeedPlan;
  const ids: Record<string, string> = {};
  for (const name of plan.users) {
    const created = await createUser({ username: name, password: plan.password });
    if (!created.ok) throw new Error(`${name}: ${created.error}`);
    ids[name] = created.user.id;
  }
  const sets = new Map<string, VersusMatchRecord>();
  const stored: string[] = [];
  const now = Date.now();
  for (const m of plan.matches) {
    const mode = m.mode ?? 'battle';
    const key = `${mode}/${m.record}`;
    if (!sets.has(key)) sets.set(key, botSet(`seed-versus-${m.record}`, mode));
    const seats = m.seats.map((name) => ({ userId: ids[name]!, guestId: null })) as [{ userId: string; guestId: null }, { userId: string; guestId: null }];
    const out = await storeMatch({ matchId: m.id, record: sets.get(key)!, seats, ranked: m.ranked, now: new Date(now - m.minutesAgo * 60_000) });
    if (!out.ok) throw new Error(`${m.id}: ${out.code} ${out.message}`);
    stored.push(m.id);
  }
  // The feature rows (the profile's versus stats, the match page's table) are written after each store.
  await integritySettled();
  process.stdout.write(`${JSON.stringify({ users: ids, stored })}\n`);
  process.exit(0);
}

if (process.argv[1]?.endsWith('seed-versus.ts')) await main();
