import 'server-only';
import type { LiveMatchSummary } from '@/lib/live/versus';
import type { LiveHub } from '@/lib/server/live/hub';

// The same process-wide hub registry.ts starts (globalThis: Next bundles routes separately).
const holder = globalThis as typeof globalThis & { __linefallLive?: LiveHub };

/** The versus matches being played in this process; empty when the hub is not running. */
export function liveMatches(): LiveMatchSummary[] {
  return holder.__linefallLive?.bus.listMatches() ?? [];
}
