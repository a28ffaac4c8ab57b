/**
 * Live rooms on one instance (not a test): `npm run bench:rooms [-- --seconds=10 --levels=100,200,400]`.
 * Rooms of 4 and of 16 seats, every seat a bot at 3 pieces a second, played by the shipped
 * RoomLobby and RoomHost on real timers; each room has one watcher whose every message is
 * serialised as a socket would send it (the frames are what a room costs besides its bots).
 * Sets are not stored (the store is the verification pool's and the database's cost, measured
 * by bench:referee and bench:api), so this is the live wing's cost alone. Per level it prints:
 * CPU per seat-second, the event loop's delay p99 and max (a frame is sent on a timer, so this is
 * what a person's frames and acks wait beyond their own work), and heap per seat.
 * The levels run one after another in one process, each after a collection where --expose-gc is given.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, type RoomRules } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import type { Owner } from '@/lib/server/games/owner';
import { RoomLobby } from '@/lib/server/live/rooms/room-lobby';
import type { RoomSeatSpec } from '@/lib/server/live/rooms/room-seat';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SECONDS = Number(arg('seconds', '10'));
const LEVELS = arg('levels', '100,200,400').split(',').map(Number);
const SIZES = arg('sizes', '4,16').split(',').map(Number);
const PPS = 3;

const BOT = { pps: PPS, style: 'tidy' } as const;
const seat = (): RoomSeatSpec => ({ owner: { userId: null, guestId: null }, player: { name: null, guest: false, bot: BOT }, handling: DEFAULT_HANDLING, bot: BOT });
// A long set, so rooms play the whole window (a game ends when one is left; the next starts 2 s later).
const RULES: RoomRules = { ...DEFAULT_ROOM_RULES, firstTo: 7 };

/** A watcher that pays what a socket pays per message: the JSON text. */
function watcher(bytes: { n: number }) {
  const owner: Owner = { userId: null, guestId: null };
  return {
    owner, player: { name: null, guest: true }, address: 'bench', open: true, id: 'bench',
    send(m: ServerMessage) {
      bytes.n += JSON.stringify(m).length;
    },
    error() {},
    close() {},
  };
}

async function level(seats: number, size: number) {
  const rooms = Math.max(1, Math.round(seats / size));
  const lobby = new RoomLobby({ store: async (o) => ({ ok: true, matchId: o.matchId, repeated: false }) });
  const bytes = { n: 0 };
  (globalThis as { gc?: () => void }).gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  for (let r = 0; r < rooms; r++) {
    const host = lobby.playNow({ mode: 'battle', rules: RULES, seats: Array.from({ length: size }, seat) });
    host.watch(watcher(bytes) as never);
  }
  // Past the countdown and the first pieces, then the window.
  await new Promise((done) => setTimeout(done, 4_000));
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  bytes.n = 0;
  await new Promise((done) => setTimeout(done, SECONDS * 1000));
  const cpu = process.cpuUsage(cpu0);
  const wall = (performance.now() - t0) / 1000;
  loop.disable();
  const heap = process.memoryUsage().heapUsed - heap0;
  lobby.close();
  const held = rooms * size;
  return {
    seats: held, rooms, size,
    cpuUsPerSeatSecond: ((cpu.user + cpu.system) / held / wall).toFixed(1),
    cpuShare: `${(((cpu.user + cpu.system) / 1e6 / wall) * 100).toFixed(0)} %`,
    loopP99Ms: (loop.percentile(99) / 1e6).toFixed(1),
    loopMaxMs: (loop.max / 1e6).toFixed(1),
    heapKbPerSeat: (heap / held / 1024).toFixed(0),
    sentKbPerSecond: (bytes.n / 1024 / wall).toFixed(0),
  };
}

const rows = [];
for (const size of SIZES) for (const seats of LEVELS) {
  const row = await level(seats, size);
  console.log(JSON.stringify(row));
  rows.push(row);
}
console.table(rows);
process.exit(0);
