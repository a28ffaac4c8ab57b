// `npm run admin -- grant <username> [admin|moderator]` (admin by default) and `revoke <username>`:
// roles from the server's shell, for the first admin above all (lib/server/moderation/roles.ts).
// Logged in the moderation audit log as done by the console. Uses the configured database
// (DATABASE_URL; the embedded one only when the server is stopped, as for `npm run review`).
import { getDb } from '@/lib/server/db';
import { CONSOLE } from '@/lib/server/moderation/audit';
import { setRole } from '@/lib/server/moderation/roles';

const USAGE = 'usage: npm run admin -- grant <username> [admin|moderator] | revoke <username>';

async function main(args: string[]): Promise<number> {
  const [command, username, role = 'admin'] = args;
  if (!username || (command !== 'grant' && command !== 'revoke')) return fail(USAGE);
  const granted = role === 'admin' || role === 'moderator' ? role : null;
  if (command === 'grant' && !granted) return fail(USAGE);
  const outcome = await setRole({ username, role: command === 'revoke' || !granted ? 'player' : granted, actor: CONSOLE });
  if (!outcome.ok) return fail(outcome.message);
  console.log(command === 'revoke' ? `${username} is a player again` : `${username} is now ${role === 'admin' ? 'an admin' : 'a moderator'}`);
  return 0;
}

function fail(message: string): number {
  console.error(message);
  return 1;
}

const code = await main(process.argv.slice(2));
await (await getDb()).$disconnect();
process.exit(code);
