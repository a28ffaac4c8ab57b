// Stores room sets the way a room host does: test bots play a real set through the N-seat
// referee (tests/support/room-sets.ts), and storeRoomMatch verifies every seat before storing it.
// For e2e tests, run on the database of a server that is not running yet:
//
//   DATABASE_URL=pglite:/tmp/x npx tsx --conditions=react-server tests/support/seed-rooms.ts < plan.json
//
// The plan: { password, user, id } — one account (seat 0), a guest (seat 1) and two bots.
// Prints { stored: id, guest: <the guest id, which no page may show> } as JSON.
import { integritySettled } from '@/lib/server/integrity/record';
import { storeRoomMatch } from '@/lib/server/versus/room-store';
import { createUser } from '@/lib/server/users';
import { fourSeatSet } from '@/tests/support/room-sets';

export type RoomSeedPlan = { password: string; user: string; id: string };
export const SEEDED_GUEST = 'guest-seeded-0123456789abcdefghij';

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const plan = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RoomSeedPlan;
  const created = await createUser({ username: plan.user, password: plan.password });
  if (!created.ok) throw new Error(`${plan.user}: ${created.error}`);
  const seats = [
    { userId: created.user.id, guestId: null },
    { userId: null, guestId: SEEDED_GUEST },
    { userId: null, guestId: null, bot: { pps: 3, style: 'tidy' as const } },
    { userId: null, guestId: null, bot: { pps: 5, style: 'attacker' as const } },
  ];
  const out = await storeRoomMatch({ matchId: plan.id, record: fourSeatSet(), seats });
  if (!out.ok) throw new Error(`${plan.id}: ${out.code} ${out.message}`);
  await integritySettled();
  process.stdout.write(`${JSON.stringify({ stored: plan.id, guest: SEEDED_GUEST })}\n`);
  process.exit(0);
}

if (process.argv[1]?.endsWith('seed-rooms.ts')) await main();
