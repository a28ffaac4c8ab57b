import 'server-only';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What the service worker stores ahead of need, read from this build's output: every script and
 * stylesheet under /_next/static (hashed, immutable names), so a page cached for offline use finds
 * all its code, including the chunks it loads later (the practice sandbox's engine). The build id
 * names the cache, so a new deployment replaces the old one whole.
 */
export function buildAssets(root = process.cwd()): { version: string; assets: string[] } {
  const dir = path.join(root, '.next');
  let version = 'dev';
  try {
    version = readFileSync(path.join(dir, 'BUILD_ID'), 'utf8').trim();
  } catch {
    return { version, assets: [] };
  }
  const assets: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, 'static', rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (/\.(js|css)$/.test(entry.name)) assets.push(`/_next/static/${child}`);
    }
  };
  walk('');
  return { version, assets: assets.sort() };
}
