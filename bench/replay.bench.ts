/**
 * Replay viewer seek benchmark (not a test): `npm run bench:replay`. Prints medians.
 * On a 10-minute replay (≥ 36,000 ticks): seeking to the end cold (a new player: the indexing
 * pass that records checkpoints and piece markers, then the seek), warm (checkpoints kept), and
 * random seeks anywhere in the game; re-simulating from tick 0 per seek is the baseline.
 */
import { CHECKPOINT_INTERVAL, ReplayPlayer } from '@/lib/client/replay-player';
import { simulateReplay } from '@/lib/engine';
import { playGame } from '@/tests/support/bot';
import { straightRun } from '@/tests/support/replays';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

function ms(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

// A slow bot Sprint: 40 lines at one piece every 6 s of game time.
const { replay, result } = playGame({ mode: 'sprint', seed: 'bench-10min', pace: 360 });
if (!result.finished || result.ticks < 36_000) throw new Error(`bench replay is ${result.ticks} ticks, not 10 minutes`);
const end = result.ticks;
console.log(`10-minute replay: ${end} ticks (${(end / 3600).toFixed(1)} min), ${replay.events.length} events, ${result.pieces} pieces; checkpoint every ${CHECKPOINT_INTERVAL} ticks`);

const check = new ReplayPlayer(replay);
check.seek(end);
if (check.hash() !== result.hash) throw new Error('seek to the end does not land on the verified state');

const cold: number[] = [];
const warm: number[] = [];
const baseline: number[] = [];
for (let run = 0; run < 15; run++) {
  let p!: ReplayPlayer;
  cold.push(ms(() => {
    p = new ReplayPlayer(replay);
    p.seek(end);
  }));
  p.seek(0);
  warm.push(ms(() => p.seek(end)));
  // What seeking cost before checkpoints: a fresh game stepped from tick 0.
  baseline.push(ms(() => straightRun(replay, end)));
}
console.log(`seek to end, cold (new player + index + seek): ${median(cold).toFixed(2)} ms median`);
console.log(`seek to end, warm (from tick 0, checkpoints kept): ${median(warm).toFixed(3)} ms median`);
console.log(`baseline, re-simulate from tick 0 to the end: ${median(baseline).toFixed(2)} ms median (${(median(baseline) / median(warm)).toFixed(0)}× the warm seek)`);

const player = new ReplayPlayer(replay);
let s = 0x2545f491;
const rnd = () => {
  s ^= s << 13;
  s ^= s >>> 17;
  s ^= s << 5;
  return (s >>> 0) % (end + 1);
};
const seeks: number[] = [];
for (let i = 0; i < 2000; i++) {
  const target = rnd();
  seeks.push(ms(() => player.seek(target)));
}
console.log(`random seeks anywhere (2000): ${median(seeks).toFixed(3)} ms median, ${p95(seeks).toFixed(3)} ms p95, ${Math.max(...seeks).toFixed(3)} ms max`);
console.log(`fast-path simulateReplay of the whole game (server verification): ${median(Array.from({ length: 15 }, () => ms(() => simulateReplay(replay)))).toFixed(2)} ms median`);
