/**
 * Practice sandbox benchmark (not a test): `npm run bench:sandbox`. Prints medians.
 * Opening the sandbox at a moment of a 10-minute replay (≥ 36,000 ticks) = what "Play from here"
 * costs in the browser once the page has the replay: decode it, play it to that tick, keep the
 * start for reset. Measured on the code as it ships (lib/client/sandbox-source.ts bundled and
 * minified by esbuild as ESM for the browser) and, for comparison, on the source under tsx.
 */
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ReplayPlayer } from '@/lib/client/replay-player';
import * as source from '@/lib/client/sandbox-source';
import { DEFAULT_HANDLING, encodeReplay } from '@/lib/engine';
import { playGame } from '@/tests/support/bot';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

// The same slow bot Sprint as bench:replay: 40 lines at one piece every 6 s of game time.
const { replay, result } = playGame({ mode: 'sprint', seed: 'bench-10min', pace: 360 });
if (!result.finished || result.ticks < 36_000) throw new Error(`bench replay is ${result.ticks} ticks, not 10 minutes`);
const encoded = encodeReplay(replay);
const end = result.ticks;
console.log(`10-minute replay: ${end} ticks (${(end / 3600).toFixed(1)} min), ${replay.events.length} events, ${encoded.length} characters`);

const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const bundled = await build({
  entryPoints: ['lib/client/sandbox-source.ts'],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  minify: true,
  write: false,
  tsconfig: 'tsconfig.json',
});
const file = join(dir, 'sandbox-source.mjs');
writeFileSync(file, bundled.outputFiles[0]!.contents);
const shipped = (await import(pathToFileURL(file).href)) as typeof source;
rmSync(dir, { recursive: true, force: true });
console.log(`bundle: ${(bundled.outputFiles[0]!.contents.length / 1024).toFixed(1)} kB minified (engine, fumen codec, sandbox)`);

// Moments spread over the game, the end included; each checked against the viewer's own seek.
let s = 0x2545f491;
const moments = [end, ...Array.from({ length: 39 }, () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0), s % end))];
const viewer = new ReplayPlayer(replay);
const handling = { ...DEFAULT_HANDLING };

for (const [name, lib] of [['shipped bundle (esbuild ESM, minified)', shipped], ['source under tsx', source]] as const) {
  const times: number[] = [];
  for (let run = 0; run < 5; run++) {
    for (const tick of moments) {
      const t0 = process.hrtime.bigint();
      const { sandbox } = lib.openSandbox({ kind: 'replay', encoded, tick }, handling);
      sandbox.snapshot();
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (run === 0) {
        viewer.seek(tick);
        if (sandbox.hash() !== viewer.hash()) throw new Error(`sandbox at tick ${tick} differs from the viewer's state`);
      }
    }
  }
  const atEnd = times.filter((_, i) => i % moments.length === 0);
  console.log(
    `${name}: open at a random moment ${median(times).toFixed(2)} ms median, p95 ${p95(times).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms; at the end ${median(atEnd).toFixed(2)} ms median`,
  );
}
