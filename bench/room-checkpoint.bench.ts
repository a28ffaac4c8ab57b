/**
 * What a room set's checkpoint costs (not a test): `npm run bench:room-checkpoint [-- --sizes=4,16 --at=30,60,120]`.
 * A room of bots (3 pieces a second, the shipped RoomHost) is played on a hand-turned clock to
 * each moment of its first game; there its checkpoint is taken (RoomHost.checkpoint), written as
 * JSON, read back (parseRoomCheckpoint) and restored (RoomHost.restore, which replays every game
 * and has each bot choose its inputs again). Per row: the JSON's size, and the milliseconds of
 * each step, the median of --runs. The live play to each moment is not timed (bench:rooms has it).
 *
 * Then, with Redis (`--redis=`, default REDIS_URL or redis://127.0.0.1:6379; skipped if none
 * answers), a room of --write-seats is played for --write-seconds and written each second as the
 * versus home writes it (RedisRoomCheckpoints.save: the head and what was played since), beside
 * what writing it whole each second would send: bytes a second and the write's milliseconds on the
 * event loop. Last, what the next home does with it: read it back and restore it.
 *
 * Then the rooms in their lobby (`--lobby-rooms=`, default the instance's bound, 16 people each):
 * what the home's write each second costs on the event loop (RoomLobby.lobbies, then
 * RedisRoomCheckpoints.saveLobbies: only rooms changed since the last write are built and sent)
 * when none, one or all changed, against building and serializing them all each second; then the
 * next home's read (its time, and its longest hold on the event loop) and take-up of all of them.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES } from '@/lib/engine';
import type { Timers } from '@/lib/server/live/match/match-host';
import { RoomHost } from '@/lib/server/live/rooms/room-host';
import { parseRoomCheckpoint } from '@/lib/server/live/rooms/room-checkpoint';
import type { RoomSeatSpec } from '@/lib/server/live/rooms/room-seat';
import { connectRedis } from '@/lib/server/live/cluster/redis';
import { RedisRoomCheckpoints } from '@/lib/server/live/cluster/room-checkpoints';
import type { LobbyCheckpoint } from '@/lib/server/live/rooms/lobby-checkpoint';
import { ROOM_LIMITS } from '@/lib/server/live/rooms/room-limits';
import { RoomLobby, type LobbyEntry } from '@/lib/server/live/rooms/room-lobby';

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
await writes();
await lobbies();
process.exit(0);

/** A room of bots written to Redis each second as the home writes it, against writing it whole. */
async function writes(): Promise<void> {
  const url = arg('redis', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const link = connectRedis(url);
  if ((await link.cmd.ping().catch(() => null)) !== 'PONG') return void (console.log(`no Redis at ${url}: the write part is skipped`), link.kill());
  const size = Number(arg('write-seats', '16'));
  const seconds = Number(arg('write-seconds', '120'));
  const homeKey = `linefall:bench:versus-home:${process.pid}`;
  await link.cmd.set(homeKey, link.instance, 'PX', 600_000);
  const store = new RedisRoomCheckpoints(link, homeKey);
  const clock = handClock();
  const options = { now: clock.now, timers: clock.timers, stalls: () => 0, store: async () => ({ ok: true as const, matchId: 'bench-w', repeated: false }) };
  const host = new RoomHost({ ...options, matchId: `bench-w-${process.pid}`, code: 'BENCHW', seed: `bench-w-${size}`, mode: 'battle', rules: { ...DEFAULT_ROOM_RULES, firstTo: 7 }, seats: Array.from({ length: size }, seat) });
  host.begin(Array.from({ length: size }, () => null));
  const around = { host: -1, kicked: [], again: false, ranked: false };
  const sent = { append: 0, whole: 0 };
  const loop = { append: [] as number[], whole: [] as number[] };
  const key = `linefall:live:room-set:${host.matchId}`;
  for (let s = 0; s < seconds + 3; s++) {
    for (let t = 0; t < 1000; t += 50) clock.advance(50);
    const cp = host.checkpoint();
    const listed = await link.cmd.lrange(`${key}:games`, 0, -1);
    let wrote: Promise<boolean> = Promise.resolve(true);
    loop.append.push(ms(() => (wrote = store.save(cp, around))));
    if (!(await wrote)) throw new Error('the bench does not hold its home');
    const after = await link.cmd.lrange(`${key}:games`, 0, -1);
    sent.append += (await link.cmd.strlen(key)) + after.slice(listed.length).reduce((n, c) => n + c.length, 0);
    let text = '';
    loop.whole.push(ms(() => (text = JSON.stringify(cp))));
    sent.whole += text.length;
  }
  let read: Awaited<ReturnType<RedisRoomCheckpoints['read']>> = null;
  const t = performance.now();
  read = await store.read(host.matchId);
  const readMs = performance.now() - t;
  if (!read) throw new Error('the checkpoint did not read back');
  const written = read.cp;
  const restoreMs = ms(() => RoomHost.restore(written, options).close());
  const row = {
    seats: size, seconds, games: host.match.games.length,
    kbPerSecondAppended: (sent.append / 1024 / (seconds + 3)).toFixed(1), kbPerSecondWhole: (sent.whole / 1024 / (seconds + 3)).toFixed(1),
    saveMsP50: median(loop.append.slice()).toFixed(2), saveMsMax: Math.max(...loop.append).toFixed(2), wholeJsonMsP50: median(loop.whole.slice()).toFixed(2), wholeJsonMsMax: Math.max(...loop.whole).toFixed(2),
    readMs: readMs.toFixed(1), restoreMs: restoreMs.toFixed(1),
  };
  console.log(JSON.stringify(row));
  console.table([row]);
  store.drop(host.matchId);
  host.close();
  await link.cmd.del(homeKey);
  link.close();
}

/** The rooms in their lobby, written each second as the home writes them, and taken up. */
async function lobbies(): Promise<void> {
  const url = arg('redis', process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const link = connectRedis(url);
  if ((await link.cmd.ping().catch(() => null)) !== 'PONG') return void (console.log(`no Redis at ${url}: the lobby part is skipped`), link.kill());
  const count = Number(arg('lobby-rooms', String(ROOM_LIMITS.roomsPerInstance)));
  const homeKey = `linefall:bench:versus-home:lobbies:${process.pid}`;
  await link.cmd.set(homeKey, link.instance, 'PX', 600_000);
  const store = new RedisRoomCheckpoints(link, homeKey);
  // The home's rooms, made as a take-up makes them (16 people's seats each, held: hand-turned timers never end the hold).
  const home = new RoomLobby({ timers: handClock().timers });
  const person = (r: number, s: number) => ({
    owner: { userId: `user-${r}-${s}-${'x'.repeat(20)}`, guestId: null }, player: { name: `player${r}_${s}`, guest: false }, handling: DEFAULT_HANDLING, ready: s % 2 === 0,
  });
  for (let r = 0; r < count; r++) {
    const room: LobbyCheckpoint = {
      code: `L${r.toString(36).toUpperCase().padStart(5, '0')}`, mode: 'battle', rules: { ...DEFAULT_ROOM_RULES }, host: 0, again: true, kicked: [],
      seats: Array.from({ length: 16 }, (_, s) => person(r, s)),
    };
    if (!home.takeUpLobby(room)) throw new Error(`room ${r} was not made`);
  }
  /** The write's part on the event loop (serializing and comparing every room); Redis's reply is awaited, untimed. */
  const save = async (list: LobbyEntry[]) => {
    let saved: Promise<boolean> = Promise.resolve(true);
    const loopMs = ms(() => (saved = store.saveLobbies(list)));
    if (!(await saved)) throw new Error('the bench does not hold its home');
    return loopMs;
  };
  const runs = Math.max(3, RUNS);
  const cases: Array<{ what: string; f: (run: number) => LobbyEntry[] }> = [
    { what: 'first write (all sent)', f: () => (store.forgetLobbies(), home.lobbies()) },
    { what: 'none changed (none sent)', f: () => home.lobbies() },
    // A room's change gives it a new `rev` (RoomLobby.tell): the first room's, here, a new one each run.
    { what: 'one changed (one sent)', f: (run) => home.lobbies().map((e, i) => (i === 0 ? { ...e, rev: -1 - run } : e)) },
  ];
  const out = [];
  const all = () => JSON.stringify(home.lobbies().map((e) => e.read()));
  const allText = all();
  for (const c of cases) {
    const lobbiesMs: number[] = [];
    const saveMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      let list: LobbyEntry[] = [];
      lobbiesMs.push(ms(() => (list = c.f(i))));
      saveMs.push(await save(list));
    }
    out.push({ rooms: count, write: c.what, lobbiesMsP50: median(lobbiesMs).toFixed(2), saveLoopMsP50: median(saveMs).toFixed(2), saveLoopMsMax: Math.max(...saveMs).toFixed(2) });
  }
  // The baseline: every room built and serialized each second (what sending them all, or comparing them as text, costs).
  const wholeMs: number[] = [];
  for (let i = 0; i < runs; i++) wholeMs.push(ms(all));
  // The read's longest hold on the event loop: a timer due every millisecond, late by that much.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const t = performance.now();
  const read = await store.lobbies();
  const readMs = performance.now() - t;
  delay.disable();
  const readLoopMaxMs = delay.max / 1e6;
  const next = new RoomLobby({ timers: handClock().timers });
  const takeUpMs = ms(() => read.forEach((room) => next.takeUpLobby(room)));
  const summary = {
    rooms: count, allKb: (allText.length / 1024).toFixed(0), roomBytes: Math.round(allText.length / count), wholeJsonMsP50: median(wholeMs).toFixed(2),
    readMs: readMs.toFixed(1), readLoopMaxMs: readLoopMaxMs.toFixed(1), takeUpMs: takeUpMs.toFixed(1), takenUp: next.rooms.size,
  };
  console.log(JSON.stringify(out));
  console.table(out);
  console.log(JSON.stringify(summary));
  console.table([summary]);
  await link.cmd.del(homeKey, `${homeKey}:room-lobbies`);
  link.close();
}
