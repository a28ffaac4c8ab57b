/**
 * Determinism across runtimes: the engine bundled for the browser must re-simulate every golden
 * replay to the same hash as Node does. Self-contained: esbuild bundles lib/engine into a global,
 * a blank page loads it; no web server is involved.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import { decodeReplay, simulateReplay } from '@/lib/engine';
import type { Replay } from '@/lib/engine';

type Engine = typeof import('@/lib/engine');
declare global {
  interface Window {
    LinefallEngine: Engine;
  }
}

interface Fixture {
  name: string;
  encoded: string;
  replay: Replay;
  /** A game that never ends (Zen) is played this far, as its golden was. */
  maxTicks?: number;
  expected: { hash: string };
}

const fixturesDir = new URL('../fixtures/replays/', import.meta.url);
const fixtures: Fixture[] = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, fixturesDir), 'utf8')) as Fixture);

async function engineBundle(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../lib/engine/index.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'LinefallEngine',
    platform: 'browser',
    target: 'es2022',
    write: false,
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output');
  return file.text;
}

test('golden replays hash the same in Chromium as in Node', async ({ page }) => {
  expect(fixtures.length).toBeGreaterThan(0);
  await page.setContent('<!doctype html><meta charset="utf-8"><title>engine determinism</title>');
  await page.addScriptTag({ content: await engineBundle() });

  const inBrowser = await page.evaluate(
    (list) =>
      list.map(({ name, encoded, replay, budget }) => {
        const engine = window.LinefallEngine;
        return {
          name,
          hash: engine.simulateReplay(replay, budget).hash,
          decodedHash: engine.simulateReplay(engine.decodeReplay(encoded), budget).hash,
          reencoded: engine.encodeReplay(replay) === encoded,
        };
      }),
    fixtures.map(({ name, encoded, replay, maxTicks }) => ({ name, encoded, replay, budget: maxTicks === undefined ? {} : { maxTicks } })),
  );

  for (const f of fixtures) {
    const budget = f.maxTicks === undefined ? {} : { maxTicks: f.maxTicks };
    const nodeHash = simulateReplay(f.replay, budget).hash;
    expect(nodeHash, `${f.name}: Node vs fixture`).toBe(f.expected.hash);
    expect(simulateReplay(decodeReplay(f.encoded), budget).hash, `${f.name}: Node, decoded`).toBe(nodeHash);
    const b = inBrowser.find((r) => r.name === f.name);
    expect(b, `${f.name}: missing from the browser run`).toBeDefined();
    expect(b?.hash, `${f.name}: Chromium vs Node`).toBe(nodeHash);
    expect(b?.decodedHash, `${f.name}: Chromium, decoded`).toBe(nodeHash);
    expect(b?.reencoded, `${f.name}: Chromium re-encodes identically`).toBe(true);
  }
});
