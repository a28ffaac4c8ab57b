// @ts-check
import { PHASE_PRODUCTION_SERVER } from 'next/constants.js';
import { parseEnv } from './lib/env.js';
import { MAX_REQUEST_BODY_BYTES } from './lib/request-limits.js';

/** @param {string} phase */
export default function config(phase) {
  // Fails `next build`, `next dev` and `next start` on a bad environment, before serving.
  parseEnv(process.env, { requireSecret: phase === PHASE_PRODUCTION_SERVER });

  /** @type {import('next').NextConfig} */
  const nextConfig = {
    reactStrictMode: true,
    poweredByHeader: false,
    // Loaded by Node at run time rather than bundled: PGlite ships WebAssembly and data
    // files it finds next to itself; argon2 is a native addon; ws and ioredis are plain Node libraries, loaded as they ship.
    serverExternalPackages: ['@electric-sql/pglite', 'pglite-prisma-adapter', '@node-rs/argon2', 'ws', 'ioredis'],
    // `npm test` has run `tsc` over the whole project before it builds (scripts/test.mjs): the
    // build's own check of the same files would be the same 30 s again.
    typescript: { ignoreBuildErrors: process.env.LINEFALL_TYPES_CHECKED === '1' },
    experimental: {
      // A build's cache on disk speeds the next build of this checkout; CI builds a fresh clone once.
      turbopackFileSystemCacheForBuild: !process.env.CI,
      // Next copies each body for proxy.ts, 10 MB by default: keep no more than any route reads.
      // One byte over, so a route still sees that a body was too large (readCapped answers 413).
      proxyClientMaxBodySize: MAX_REQUEST_BODY_BYTES + 1,
    },
    // Pages and API responses get their security headers in proxy.ts; build assets get this one.
    async headers() {
      return [{ source: '/_next/static/:path*', headers: [{ key: 'X-Content-Type-Options', value: 'nosniff' }] }];
    },
  };
  return nextConfig;
}
