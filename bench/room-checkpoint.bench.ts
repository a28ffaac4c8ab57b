/**
 * What a room set's checkpoint costs (not a test): `npm run bench:room-checkpoint [-- --sizes=4,16 --at=30,60,120]`.
 * A room of bots (3 pieces a second, the shipped RoomHost) is played on a hand-turned clock to
 * each moment of its first game; there its checkpoint is taken (RoomHost.checkpoint), written as
 * JSON, read back (parseRoomCheckpoint) and restored (RoomHost.restore, which replays every game
 * and has each bot choose its inputs again). Per row: the JSON's size, and the milliseconds of
 * each step, the median of --runs. The live play to each moment is not timed (bench:rooms has it).
 */
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES } from '@/lib/engine';
import type { Timers } from '@/lib/server/live/match/match-host';
import { RoomHost } from '@/lib/server/live/rooms/room-host';
import { parseRoomCheckpoint } from '@/lib/server/live/rooms/room-checkpoint';
import type { RoomSeatSpec } from '@/lib/server/live/rooms/room-seat';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const SIZES = arg('sizes', '4,16').split(',').map(Number);
const AT = arg('at', '30,60,120').split(',').map(Number);
const RUNS = Number(arg('runs', '5'));

const BOT = { pps: 3, style: 'tidy' } as const;
const seat = (): RoomSeatSpec => ({ owner: { userId: null, guestId: null }, player: { name: null, guest: false, bot: BOT }, handling: DEFAULT_HANDLING, bot: BOT });

/** A clock the bench turns: timers fire in order as it moves. */
function handClock() {
  let now = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  let ids = 0;
  const timers: Timers = {
    set: (fn, ms) => (due.set(++ids, { at: now + ms, fn }), ids),
    clear: (id) => void due.delete(id as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const next = [...due].sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!next || next[1].at > end) break;
      due.delete(next[0]);
      now = Math.max(now, next[1].at);
      next[1].fn();
    }
    now = end;
  };
  return { now: () => now, timers, advance };
}

const ms = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const rows = [];
for (const size of SIZES) {
  const clock = handClock();
  const options = { now: clock.now, timers: clock.timers, stalls: () => 0, store: async () => ({ ok: true as const, matchId: 'bench', repeated: false }) };
  const host = new RoomHost({ ...options, matchId: 'bench', code: 'BENCH', seed: `bench-${size}`, mode: 'battle', rules: { ...DEFAULT_ROOM_RULES, firstTo: 7 }, seats: Array.from({ length: size }, seat) });
  host.begin(Array.from({ length: size }, () => null));
  let played = 0;
  for (const seconds of AT) {
    // The countdown (3 s), then play to `seconds` of the game's clock.
    for (; played < (seconds + 3) * 1000; played += 50) clock.advance(50);
    const times = { checkpoint: [] as number[], json: [] as number[], parse: [] as number[], restore: [] as number[] };
    let bytes = 0;
    for (let r = 0; r < RUNS; r++) {
      let cp = host.checkpoint();
      let text = '';
      times.checkpoint.push(ms(() => (cp = host.checkpoint())));
      times.json.push(ms(() => (text = JSON.stringify(cp))));
      bytes = text.length;
      let parsed = parseRoomCheckpoint(text);
      times.parse.push(ms(() => (parsed = parseRoomCheckpoint(text))));
      if (!parsed.ok) throw new Error(parsed.message);
      const restored = parsed.checkpoint;
      times.restore.push(ms(() => RoomHost.restore(restored, options).close()));
    }
    const row = {
      seats: size, gameSeconds: seconds, pieces: host.match.current.game(0).stats().pieces, games: host.match.games.length, kb: (bytes / 1024).toFixed(0),
      checkpointMs: median(times.checkpoint).toFixed(2), jsonMs: median(times.json).toFixed(2), parseMs: median(times.parse).toFixed(2), restoreMs: median(times.restore).toFixed(1),
    };
    console.log(JSON.stringify(row));
    rows.push(row);
  }
  host.close();
}
console.table(rows);
process.exit(0);
