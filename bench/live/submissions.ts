/**
 * A stream of worst-case HTTP submissions for bench:live (`--submissions=N`, a second): each the
 * longest real game the rules let a replay describe (the bot's whole 150-line Marathon, ~5,000
 * ticks, as bench:verify sends), on a ticket backdated so the elapsed-time check allows it, from a
 * guest of its own on an address of its own (no per-player or per-address limit is what stops it).
 * Tickets are issued over HTTP, then backdated and given one of a few seeds the bench has played
 * (PGlite: with the server stopped, one process per directory).
 */
import { encodeReplay } from '@/lib/engine';
import { Player, percentile } from '@/bench/load/client';
import { queryPglite } from '@/tests/support/postgres';
import { botGame, claimOf } from '@/tests/support/replays';

type Prepared = { player: Player; gameId: string; body: { replay: string; claimed: ReturnType<typeof claimOf> } };
export type StreamResult = { sent: number; statuses: Record<string, number>; p50: number; p99: number };

const SEEDS = ['worst-1', 'worst-2', 'worst-3', 'worst-4'];

/** `count` tickets ready to be answered with worst-case replays; restarts the server around the backdating. */
export async function prepareWorstCase(o: { url: string; dataDir: string; count: number; restart: { stop(): Promise<unknown>; start(): Promise<void> } }): Promise<Prepared[]> {
  const games = SEEDS.map((seed) => {
    const played = botGame('marathon', seed);
    return { seed, ticks: played.result.ticks, body: { replay: encodeReplay(played.replay), claimed: claimOf(played.result) } };
  });
  const tickets: Array<{ player: Player; gameId: string; i: number }> = [];
  for (let i = 0; i < o.count; i++) {
    const player = new Player(o.url, `10.99.${i >> 8}.${i & 255}`);
    const r = await player.request('/api/games', { json: { mode: 'marathon' } });
    if (r.status !== 201) throw new Error(`ticket ${i}: ${r.status} ${JSON.stringify(r.body)}`);
    tickets.push({ player, gameId: (r.body as { gameId: string }).gameId, i });
  }
  await o.restart.stop();
  for (const [k, game] of games.entries()) {
    const ids = tickets.filter((t) => t.i % SEEDS.length === k).map((t) => `'${t.gameId}'`).join(',');
    if (!ids) continue;
    await queryPglite(o.dataDir, `UPDATE "GameTicket" SET "seed" = '${game.seed}', "issuedAt" = now() - interval '170 minutes', "expiresAt" = now() + interval '60 minutes' WHERE "id" IN (${ids})`);
  }
  await o.restart.start();
  console.log(`  ${o.count} worst-case submissions ready: replays of ${games.map((g) => g.ticks).join(', ')} ticks`);
  return tickets.map((t) => ({ player: t.player, gameId: t.gameId, body: games[t.i % SEEDS.length]!.body }));
}

/** Sends the prepared submissions at `perSecond`, unpaced by answers, until `stop` settles; what came back. */
export async function streamSubmissions(prepared: Prepared[], perSecond: number, stop: Promise<unknown>): Promise<StreamResult> {
  const statuses: Record<string, number> = {};
  const ms: number[] = [];
  const inFlight: Promise<void>[] = [];
  let next = 0;
  let stopped = false;
  void stop.finally(() => (stopped = true));
  const t0 = performance.now();
  while (!stopped && next < prepared.length) {
    const p = prepared[next++]!;
    inFlight.push(
      p.player.request(`/api/games/${p.gameId}/replay`, { json: p.body }).then(
        (r) => {
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
          ms.push(r.ms);
        },
        () => void (statuses.error = (statuses.error ?? 0) + 1),
      ),
    );
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + (next * 1000) / perSecond - performance.now())));
  }
  if (next >= prepared.length && !stopped) console.error(`  the ${prepared.length} prepared submissions ran out before the window ended`);
  await Promise.all(inFlight);
  ms.sort((a, b) => a - b);
  return { sent: next, statuses, p50: percentile(ms, 50), p99: percentile(ms, 99) };
}
