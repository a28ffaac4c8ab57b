/**
 * The live benchmark's load generator (a process of its own, started by bench/live/run.ts):
 * `--games` bot clients, each over its own socket, playing marathon at ~3 pieces a second with
 * a batch every 100 ms and starting a new game when one ends. After the ramp it measures for
 * `--seconds` and prints one JSON line of latencies.
 */
import { LiveClient, playLive } from '@/tests/support/live-client';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const url = process.argv.find((a) => a.startsWith('--url='))!.split('=')[1]!;
const GAMES = arg('games', 100);
const SECONDS = arg('seconds', 20);
const RAMP_MS = arg('ramp', 10) * 1000;
const PER_ADDRESS = 16;

let measuring = false;
const acks: number[] = [];
const deals: number[] = [];
let errors = 0;
let games = 0;
let stopped = false;

async function bot(i: number): Promise<void> {
  await new Promise((r) => setTimeout(r, (RAMP_MS * i) / GAMES));
  const address = `10.77.${Math.floor(i / PER_ADDRESS) >> 8}.${Math.floor(i / PER_ADDRESS) & 255}`;
  const client = await LiveClient.connect(url, { address });
  client.onMessage = (m) => {
    if (m.t === 'error' && measuring) errors++;
  };
  for (let seed = i * 1000; !stopped; seed++) {
    await playLive(client, {
      mode: 'marathon', ticksPerPiece: 20, seed,
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
await new Promise((r) => setTimeout(r, RAMP_MS + 3000));
measuring = true;
console.log('MEASURE_START');
await new Promise((r) => setTimeout(r, SECONDS * 1000));
measuring = false;
console.log('MEASURE_END');
console.log(JSON.stringify({ games: GAMES, seconds: SECONDS, batches: acks.length, deals: deals.length, gamesEnded: games, errors,
  ackP50: pct(acks, 50), ackP99: pct(acks, 99), dealP50: pct(deals, 50), dealP99: pct(deals, 99) }));
stopped = true;
process.exit(0);
