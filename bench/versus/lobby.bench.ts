/**
 * The versus home's lobby with many private rooms of two open (not a test):
 * `npm run bench:lobby [-- --rooms=1000,4000 --rounds=3]`. The shipped VersusLobby on real timers,
 * every room made by a guest socket of its own and half of them joined. Per level it prints:
 * - µs per lobby message from a socket in nothing yet (a `room_create`, then its `room_leave`):
 *   each asks whether the socket is busy, the question every queue, room and sparring message asks;
 * - ms for every socket of the rooms dropped at once, as when an instance relaying them goes
 *   (versus-relay.ts drops each of its peers in one turn of the loop), which blocks the loop.
 * The best of `--rounds` for each, a fresh lobby per round.
 */
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { VersusMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import type { VersusPeer } from '@/lib/server/live/connection';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const LEVELS = arg('rooms', '1000,4000').split(',').map(Number);
const ROUNDS = Number(arg('rounds', '3'));
const MESSAGES = 2_000;
const SETUP = { handling: DEFAULT_HANDLING, nextCount: 5 };

let peers = 0;
/** A guest's socket as the lobby sees it; the last room it was told of is kept, as its page would. */
function peer(): VersusPeer & { code: string | null } {
  const n = ++peers;
  const p: VersusPeer & { code: string | null } = {
    owner: { userId: null, guestId: `bench-${n}` }, player: { name: null, guest: true }, address: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, device: null,
    open: true, watches: new Map(), match: null, code: null,
    send: (m) => void (m.t === 'room' && (p.code = m.room.code)),
    error: (code, message) => {
      throw new Error(`${code}: ${message}`);
    },
  };
  return p;
}

async function round(rooms: number): Promise<{ messageUs: number; dropMs: number }> {
  const lobby = new VersusLobby({ bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: async () => ({ ok: true, avoid: [] }) });
  const send = (c: VersusPeer, m: VersusMessage) => lobby.handle(c, m);
  const seated: VersusPeer[] = [];
  for (let i = 0; i < rooms; i++) {
    const maker = peer();
    await send(maker, { t: 'room_create', mode: 'battle', firstTo: 2, ...SETUP });
    seated.push(maker);
    if (i % 2 === 0) {
      const guest = peer();
      await send(guest, { t: 'room_join', code: maker.code!, ...SETUP });
      seated.push(guest);
    }
  }
  const idle = Array.from({ length: MESSAGES / 2 }, peer);
  const started = process.hrtime.bigint();
  for (const c of idle) {
    await send(c, { t: 'room_create', mode: 'battle', firstTo: 2, ...SETUP });
    await send(c, { t: 'room_leave', code: (c as ReturnType<typeof peer>).code! });
  }
  const messageUs = Number(process.hrtime.bigint() - started) / 1_000 / MESSAGES;
  const dropStarted = process.hrtime.bigint();
  for (const c of seated) lobby.drop(c);
  const dropMs = Number(process.hrtime.bigint() - dropStarted) / 1e6;
  lobby.close();
  return { messageUs, dropMs };
}

console.log('rooms | sockets seated | µs per lobby message (best) | ms to drop every seated socket (best)');
for (const rooms of LEVELS) {
  const runs: Array<{ messageUs: number; dropMs: number }> = [];
  for (let r = 0; r < ROUNDS; r++) runs.push(await round(rooms));
  const best = (k: 'messageUs' | 'dropMs') => Math.min(...runs.map((x) => x[k]));
  console.log(`${rooms} | ${rooms + Math.ceil(rooms / 2)} | ${best('messageUs').toFixed(2)} | ${best('dropMs').toFixed(1)}`);
}
process.exit(0);
