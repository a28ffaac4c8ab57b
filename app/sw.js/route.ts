import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MODE_NAMES } from '@/lib/engine';
import { buildAssets } from '@/lib/pwa/precache';

// Read once per server: the build does not change under a running server.
let body: string | null = null;

/**
 * The service worker, at the site's root so it controls every page. Served by the app (not from
 * public/) so that it carries this build's asset list and version; lib/pwa/worker.js is its code.
 */
export function GET() {
  if (body === null) {
    const { version, assets } = buildAssets();
    const code = readFileSync(path.join(process.cwd(), 'lib/pwa/worker.js'), 'utf8');
    const modePages = MODE_NAMES.map((mode) => `/play/${mode}`);
    body = `const VERSION = ${JSON.stringify(version)};\nconst ASSETS = ${JSON.stringify(assets)};\nconst MODE_PAGES = ${JSON.stringify(modePages)};\n${code}`;
  }
  return new Response(body, {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      // Browsers check for a new worker on navigation; never let a cache hand them an old one.
      'cache-control': 'no-cache',
      'service-worker-allowed': '/',
    },
  });
}
