/**
 * Engine benchmark (not a test): `npm run bench:engine`. Prints medians over repeated runs.
 * 1. Re-simulating a 3-minute, ~100-piece bot replay (~10,800 ticks, ~850 input events).
 * 2. Raw tick throughput on that replay.
 * 3. Pieces per second when every piece is placed at a random column/rotation and hard dropped.
 * 4. Live play: the same game fed tick by tick through Game and DealtGame.
 * Also: the finesse count of that replay (the verification workers' extra job per stored game).
 */
import { createCore } from '@/lib/engine/setup';
import { createDealtGame, createGame, decodePackedReplay, decodeReplay, DEFAULT_HANDLING, encodeReplay, finesseOfReplay, pieceSequence, simulatePacked, simulateReplay } from '@/lib/engine';
import type { Replay } from '@/lib/engine';
import { playGame } from '@/tests/support/bot';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

function timeIt(fn: () => void, runs: number, inner: number): number {
  for (let i = 0; i < 20; i++) fn();
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < inner; i++) fn();
    samples.push(Number(process.hrtime.bigint() - t0) / inner / 1000);
  }
  return median(samples);
}

function benchReplay(): Replay {
  const { replay, result } = playGame({ mode: 'sprint', seed: 'bench-3min', pace: 105 });
  if (!result.finished) throw new Error('bench replay did not finish');
  return replay;
}

const ROTATE_KEYS = [-1, 4, 5, 6] as const; // none, rotateCW, rotateCCW, rotate180

/** Random placements through the real input path: rotate, walk to a column, hard drop. */
function randomPlacements(pieces: number, seed: number): number {
  const { core } = createCore({ mode: 'marathon', seed: `rand-${seed}`, handling: DEFAULT_HANDLING }, false);
  let s = (seed * 0x9e3779b1) | 1;
  const rnd = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  let placed = 0;
  while (placed < pieces && !core.ended) {
    const r = rnd();
    const rot = ROTATE_KEYS[r & 3]!;
    if (rot >= 0) core.input(rot, true);
    const dx = ((r >>> 4) % 10) - 5;
    const key = dx < 0 ? 0 : 1;
    for (let i = 0; i < Math.abs(dx); i++) {
      core.input(key, true);
      core.input(key, false);
    }
    if (rot >= 0) core.input(rot, false);
    core.input(3, true);
    core.input(3, false);
    core.step();
    placed++;
  }
  return placed;
}

const replay = benchReplay();
const check = simulateReplay(replay);
const encoded = encodeReplay(replay);
const us = timeIt(() => simulateReplay(replay), 25, 20);
console.log(`3-minute replay: ${check.ticks} ticks, ${replay.events.length} events, ${check.pieces} pieces, ${check.lines} lines`);
console.log(`  encoded: ${encoded.length} base64url chars (${Math.floor((encoded.length * 3) / 4)} bytes)`);
// Decoding and simulating, alternated pair by pair: what the server does with every submission
// (packed: typed arrays from the decoder to the tick loop), and the same with an object per input
// (what the replay viewer decodes, and what verification did before).
{
  const packed = decodePackedReplay(encoded);
  const pairs = (decode: () => unknown, simulate: () => unknown) => {
    const decodeUs: number[] = [];
    const simUs: number[] = [];
    for (let pair = 0; pair < 15; pair++) {
      decodeUs.push(timeIt(decode, 3, 40));
      simUs.push(timeIt(simulate, 3, 40));
    }
    const ratios = decodeUs.map((d, i) => d / simUs[i]!);
    return `${median(decodeUs).toFixed(1)} µs median, simulate ${median(simUs).toFixed(1)} µs: decode ÷ simulate ${median(ratios).toFixed(2)}`;
  };
  console.log(`  decode, packed (verification): ${pairs(() => decodePackedReplay(encoded), () => simulatePacked(packed))} (15 alternating pairs; target ≤ 0.33)`);
  console.log(`  decode, an object per input: ${pairs(() => decodeReplay(encoded), () => simulateReplay(replay))} (15 alternating pairs)`);
}
console.log(`  re-simulate: ${us.toFixed(1)} µs median  (target ≤ 200 µs)`);
console.log(`  ticks/s: ${Math.round((check.ticks / us) * 1e6).toLocaleString('en-US')} (quiet ticks between inputs fast-forwarded)`);
const usEvented = timeIt(() => simulateReplay(replay, { evented: true }), 15, 10);
console.log(
  `  every tick stepped, events built: ${usEvented.toFixed(1)} µs median, ` +
    `${Math.round((check.ticks / usEvented) * 1e6).toLocaleString('en-US')} ticks/s`,
);
// Finesse faults (lib/engine/finesse.ts): the verification workers' extra job for each stored
// game, decoding included, against the verification's own decode and re-simulation.
{
  const faultsUs = timeIt(() => finesseOfReplay(decodeReplay(encoded)), 15, 10);
  const verifyUs = timeIt(() => simulatePacked(decodePackedReplay(encoded)), 15, 10);
  console.log(`  finesse count (decode + count): ${faultsUs.toFixed(1)} µs median; verification's decode + simulate ${verifyUs.toFixed(1)} µs (${(faultsUs / verifyUs).toFixed(1)}×)`);
}

let seed = 1;
const perRun = timeIt(() => {
  let n = 0;
  while (n < 1000) n += randomPlacements(1000 - n, seed++);
}, 15, 1);
let botSeed = 0;
const botMs = timeIt(() => void playGame({ mode: 'sprint', seed: `bench-bot-${botSeed++}` }), 21, 1) / 1000;
console.log(`bot: a whole 40-line Sprint (plan, play, verify): ${botMs.toFixed(1)} ms median  (target ≤ 250 ms: tests play dozens)`);
console.log(`random placements: ${Math.round((1000 / perRun) * 1e6).toLocaleString('en-US')} pieces/s median (new game on each top-out)`);

// The generator, A/B in one run (decision 0020: at most 10% on a 3-minute replay): the same bot
// workload played under rules 3 (mulberry32, a 32-bit state) and rules 5 (ChaCha20 keyed by the
// seed). Each replay deals its own pieces, so the two games differ a little; pairs of runs
// alternate, and the ratio is the median of the pairs' ratios. Setup alone (key, first bag) too.
{
  const play = (rulesVersion: number) => {
    const { replay, result } = playGame({ mode: 'sprint', seed: 'bench-3min', pace: 105, rulesVersion });
    if (!result.finished) throw new Error(`rules ${rulesVersion}: bench replay did not finish`);
    return replay;
  };
  const [old, keyed] = [play(3), play(5)];
  const ratios: number[] = [];
  const times: [number[], number[]] = [[], []];
  for (let pair = 0; pair < 15; pair++) {
    const a = timeIt(() => simulateReplay(old), 3, 20);
    const b = timeIt(() => simulateReplay(keyed), 3, 20);
    times[0].push(a);
    times[1].push(b);
    ratios.push(b / a);
  }
  const setup = (rulesVersion: number) => timeIt(() => createCore({ mode: 'sprint', seed: `Wq3Yb0Lr9xvD2kTz${seed++}`, handling: DEFAULT_HANDLING, rulesVersion }, false), 15, 200);
  console.log(`generator A/B, a 3-minute Sprint (${simulateReplay(old).ticks} and ${simulateReplay(keyed).ticks} ticks):`);
  console.log(`  rules 3 (mulberry32): ${median(times[0]).toFixed(1)} µs; rules 5 (ChaCha20): ${median(times[1]).toFixed(1)} µs; ratio ${median(ratios).toFixed(3)} (median of 15 alternating pairs; target ≤ 1.10)`);
  console.log(`  game setup alone: rules 3 ${setup(3).toFixed(2)} µs, rules 5 ${setup(5).toFixed(2)} µs (SHA-256 of the seed, the first ChaCha20 block)`);
}

// Live play: the same 3-minute game fed tick by tick through the browser's and the hosts' path,
// Game.tick (seeded) and DealtGame.tick (dealt pieces, all dealt up front), which share one input
// path (game.ts). Per game, and per tick.
{
  const replay = benchReplay();
  const byTick = new Map<number, Array<{ key: Replay['events'][number]['key']; down: boolean }>>();
  for (const e of replay.events) byTick.set(e.tick, [...(byTick.get(e.tick) ?? []), { key: e.key, down: e.down }]);
  const ticks = simulateReplay(replay).ticks;
  const config = { mode: replay.mode, handling: replay.handling, rulesVersion: replay.rulesVersion };
  const pieces = (() => {
    const next = pieceSequence(replay.seed, replay.rulesVersion);
    return Array.from({ length: 400 }, next);
  })();
  const feed = (game: ReturnType<typeof createGame>) => {
    for (let t = 0; t < ticks && !game.over; t++) game.tick(byTick.get(t));
  };
  // Dealt as the server deals: topped up to the queue's cap whenever fewer than 8 are ahead.
  const feedDealt = (game: ReturnType<typeof createDealtGame>) => {
    for (let t = 0; t < ticks && !game.over; t++) {
      if (game.dealt - game.taken < 8) game.deal(game.dealt, pieces.slice(game.dealt, game.taken + 14));
      game.tick(byTick.get(t));
    }
  };
  const seeded = timeIt(() => feed(createGame({ ...config, seed: replay.seed })), 15, 5);
  const dealt = timeIt(() => feedDealt(createDealtGame(config, pieces.slice(0, 8))), 15, 5);
  console.log(`live play, the 3-minute game tick by tick (${ticks} ticks): Game ${(seeded / 1000).toFixed(2)} ms (${((seeded / ticks) * 1000).toFixed(0)} ns a tick), DealtGame ${(dealt / 1000).toFixed(2)} ms (${((dealt / ticks) * 1000).toFixed(0)} ns a tick)`);
}
