import 'server-only';
import type { LiveGameSummary } from '@/lib/live/protocol';
import type { LiveMatchSummary } from '@/lib/live/versus';
import type { AwaitStreamRecord } from '@/lib/server/games/submit';
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

/** The versus matches being played in this process; empty when the hub is not running. */
export function liveMatches(): LiveMatchSummary[] {
  return holder.__linefallLive?.bus.listMatches() ?? [];
}

/**
 * A POST for a live game whose end this process is still recording (the database was away when
 * the stream ended) waits up to `ms` for the record, so the replay is matched against it rather
 * than held as stream_incomplete. 'recording' if it is still not on the ticket. Another instance
 * recording it counts too (several instances behind a proxy: the POST may land anywhere).
 */
export const awaitStreamRecord: AwaitStreamRecord = async (gameId, ms) => {
  const hub = holder.__linefallLive;
  const host = hub?.hosts.get(gameId);
  if (hub && !host) return awaitRecordElsewhere(hub, gameId, ms);
  if (!host?.recording || !host.recorded) return 'not_here';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([host.recorded, timeout]);
  clearTimeout(timer);
  return host.recording ? 'recording' : 'recorded';
};

/** The same wait when another instance hosts the game: Redis says whether it is recording it. */
async function awaitRecordElsewhere(hub: LiveHub, gameId: string, ms: number): Promise<'recorded' | 'recording' | 'not_here'> {
  if (!(await hub.leases.recordingElsewhere(gameId))) return 'not_here';
  for (const until = Date.now() + ms; Date.now() < until; ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (!(await hub.leases.recordingElsewhere(gameId))) return 'recorded';
  }
  return 'recording';
}
