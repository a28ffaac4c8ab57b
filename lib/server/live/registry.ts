import 'server-only';
import type { LiveGameSummary } from '@/lib/live/protocol';
import type { LiveHub } from '@/lib/server/live/hub';

// The hub is started by instrumentation.ts and used by scripts/serve.mjs's upgrade handler and by
// GET /api/live, which Next compiles as separate bundles: hence globalThis, as for the database.
const holder = globalThis as typeof globalThis & { __linefallLive?: LiveHub };

export async function startLiveHub(): Promise<void> {
  if (holder.__linefallLive) return;
  const { LiveHub } = await import('@/lib/server/live/hub');
  holder.__linefallLive ??= new LiveHub();
}

/** The live games of this process; empty when the hub is not running (plain `next start`). */
export function liveGames(): LiveGameSummary[] {
  return holder.__linefallLive?.list() ?? [];
}
