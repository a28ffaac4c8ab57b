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
      list.map(({ name, encoded, replay }) => {
        const engine = window.LinefallEngine;
        return {
          name,
          hash: engine.simulateReplay(replay).hash,
          decodedHash: engine.simulateReplay(engine.decodeReplay(encoded)).hash,
          reencoded: engine.encodeReplay(replay) === encoded,
        };
      }),
    fixtures.map(({ name, encoded, replay }) => ({ name, encoded, replay })),
  );

  for (const f of fixtures) {
    const nodeHash = simulateReplay(f.replay).hash;
    expect(nodeHash, `${f.name}: Node vs fixture`).toBe(f.expected.hash);
    expect(simulateReplay(decodeReplay(f.encoded)).hash, `${f.name}: Node, decoded`).toBe(nodeHash);
    const b = inBrowser.find((r) => r.name === f.name);
    expect(b, `${f.name}: missing from the browser run`).toBeDefined();
    expect(b?.hash, `${f.name}: Chromium vs Node`).toBe(nodeHash);
    expect(b?.decodedHash, `${f.name}: Chromium, decoded`).toBe(nodeHash);
    expect(b?.reencoded, `${f.name}: Chromium re-encodes identically`).toBe(true);
  }
});
