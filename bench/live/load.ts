/**
 * The live benchmark's load generator (a process of its own, started by bench/live/run.ts):
 * `--games` bot clients, each over its own socket, playing marathon at ~3 pieces a second with
 * a batch every 100 ms and starting a new game when one ends. After the ramp it measures for
 * `--seconds` (from 5 s after the last game started) and prints one JSON line of latencies, with
 * its own CPU and event-loop lag; with `--windows=N --gap=S`, N such windows S seconds apart.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LiveClient, playLive } from '@/tests/support/live-client';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const url = process.argv.find((a) => a.startsWith('--url='))!.split('=')[1]!;
const GAMES = arg('games', 100);
const SECONDS = arg('seconds', 20);
const RAMP_MS = arg('ramp', 10) * 1000;
/** Measured windows, `--gap` seconds apart, the games playing on between them (bench:hostile: alone, then beside an attack). */
const WINDOWS = arg('windows', 1);
const GAP_MS = arg('gap', 0) * 1000;
const PER_ADDRESS = 16;

let measuring = false;
const acks: number[] = [];
const deals: number[] = [];
let errors = 0;
/** Errors by code while measuring: what went wrong, when something did. */
const errorCodes: Record<string, number> = {};
let games = 0;
let stopped = false;
const SETTLE_MS = 5_000;
let playing = 0;
let allPlaying: () => void = () => {};
const everyonePlays = new Promise<void>((resolve) => (allPlaying = resolve));

async function bot(i: number): Promise<void> {
  await new Promise((r) => setTimeout(r, (RAMP_MS * i) / GAMES));
  const address = `10.77.${Math.floor(i / PER_ADDRESS) >> 8}.${Math.floor(i / PER_ADDRESS) & 255}`;
  const client = await LiveClient.connect(url, { address });
  client.onMessage = (m) => {
    if (m.t === 'error' && measuring) {
      errors++;
      errorCodes[m.code] = (errorCodes[m.code] ?? 0) + 1;
    }
  };
  let first = true;
  for (let seed = i * 1000; !stopped; seed++) {
    await playLive(client, {
      mode: 'marathon', ticksPerPiece: 20, seed,
      // Each bot's batches at its own phase, spread over the 100 ms (BatchClock).
      phaseMs: (i * 100) / GAMES,
      onStart: () => {
        if (first && ++playing === GAMES) allPlaying();
        first = false;
      },
      onAck: (ms) => measuring && acks.push(ms),
      onDeal: (ms) => measuring && deals.push(ms),
    });
    if (measuring) games++;
  }
}

const pct = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!.toFixed(2)) : null;
};

for (let i = 0; i < GAMES; i++) void bot(i).catch((e: unknown) => { errors++; console.error(String(e)); });
// Measured from SETTLE_MS after the last game started, not from a fixed time: the ramp's ticket
// writes can still be queued when it ends, and games started late would put the ramp in the window.
await Promise.race([everyonePlays, new Promise((r) => setTimeout(r, RAMP_MS + 60_000))]);
if (playing < GAMES) console.error(`only ${playing} of ${GAMES} games started within ${RAMP_MS / 1000 + 60} s`);
await new Promise((r) => setTimeout(r, SETTLE_MS));
// This process's own share of the latencies: a bot reads an ack only when its event loop gets to it.
for (let w = 0; w < WINDOWS; w++) {
  if (w > 0) await new Promise((r) => setTimeout(r, GAP_MS));
  acks.length = 0;
  deals.length = 0;
  errors = 0;
  for (const code of Object.keys(errorCodes)) delete errorCodes[code];
  games = 0;
  const lag = monitorEventLoopDelay({ resolution: 5 });
  measuring = true;
  console.log('MEASURE_START');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  lag.enable();
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  lag.disable();
  const used = process.cpuUsage(cpu0);
  const genCpuPct = ((used.user + used.system) / 1000 / (performance.now() - t0)) * 100;
  measuring = false;
  console.log('MEASURE_END');
  console.log(JSON.stringify({ games: GAMES, seconds: SECONDS, batches: acks.length, deals: deals.length, gamesEnded: games, errors, errorCodes,
    ackP50: pct(acks, 50), ackP99: pct(acks, 99), dealP50: pct(deals, 50), dealP99: pct(deals, 99),
    genCpuPct: Number(genCpuPct.toFixed(0)), genLagP99: Number((lag.percentile(99) / 1e6).toFixed(1)) }));
}
stopped = true;
process.exit(0);
