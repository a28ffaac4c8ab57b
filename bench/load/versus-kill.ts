// The versus side of the cluster test's kill (bench/load/run.ts --cluster --kill): a quick match
// between guests on the two instances; the instance hosting it (its lease on Redis says which) is
// killed (SIGKILL) mid-game; both players reconnect to the other instance and resume, the match is
// taken up there from its checkpoint and plays on, then one leaves. It must be stored once (the
// caller counts the rows), with replays that re-simulate, and hold what was played before the kill.
import { Redis } from 'ioredis';
import { HANDLING, VersusPlayer } from '@/tests/support/versus-client';
import { fetchStoredMatch, resimulationProblems } from '@/tests/support/versus-stored';
import type { Cluster } from '@/tests/support/cluster';

type Result = { problems: string[]; lines: string[]; matchId: string | null };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function versusHostKilled(cluster: Cluster): Promise<Result> {
  const problems: string[] = [];
  const lines: string[] = [];
  const urls = [cluster.instances[0]!.url, cluster.instances[1]!.url];
  const players: VersusPlayer[] = [];
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  try {
    const addresses = ['10.252.1.1', '10.252.1.2'];
    for (const [i, url] of urls.entries()) players.push(await VersusPlayer.connect(url!, { seed: `kill-${i}`, mistakes: 0.3, pace: 10 }, { address: addresses[i]! }));
    for (const p of players) p.client.send({ t: 'queue', mode: 'battle', ranked: false, handling: HANDLING, nextCount: 5 });
    const [m0, m1] = await Promise.all(players.map((p) => p.client.next('match', () => true, 15_000)));
    if (m0!.matchId !== m1!.matchId) problems.push(`the two guests were not paired together: ${m0!.matchId}, ${m1!.matchId}`);
    const matchId = m0!.matchId;
    for (const p of players) void p.play().catch(() => {});
    await sleep(6_000); // the countdown, then 3 s of play
    const holder = await redis.get(`linefall:live:match-host:${matchId}`);
    const hostIndex = cluster.instances.findIndex((s) => holder?.startsWith(`${s.pid()}-`));
    if (hostIndex < 0) {
      problems.push(`no instance holds match ${matchId}'s lease (${holder})`);
      return { problems, lines, matchId };
    }
    const other = 1 - hostIndex;
    const killedAt = performance.now();
    await cluster.kill(hostIndex);
    // Both come back through the surviving instance (the one connected there was closed on its next batch, or is about to be).
    const resumed = await Promise.all(players.map((p, i) => p.reconnect(urls[other]!, p.guestCookie(), addresses[i]).catch((e: unknown) => e)));
    const tookMs = performance.now() - killedAt;
    for (const [i, r] of resumed.entries()) if (r instanceof Error || (r as { matchId?: string }).matchId !== matchId) problems.push(`player ${i} did not resume the match after the kill: ${String(r instanceof Error ? r.message : JSON.stringify(r))}`);
    const ticks = resumed.map((r) => (r instanceof Error ? -1 : (r as { tick: number }).tick));
    if (ticks.some((t) => t < 60)) problems.push(`the match was taken up from too early a point (ticks ${ticks.join(', ')}): what was played before the kill was lost`);
    const overs = players.map((p) => p.play());
    await sleep(3_000);
    players[0]!.client.send({ t: 'vleave', matchId });
    const ends = await Promise.all(overs.map((o) => o.catch((e: unknown) => e)));
    if (ends.some((e) => e instanceof Error || !(e as { stored?: boolean }).stored)) problems.push(`the match taken up did not end stored: ${ends.map((e) => (e instanceof Error ? e.message : JSON.stringify(e))).join(' | ')}`);
    const stored = await fetchStoredMatch(cluster.url, matchId, { 'x-forwarded-for': '10.252.1.3' });
    problems.push(...resimulationProblems(stored));
    lines.push(`match ${matchId}: its host (instance ${hostIndex + 1}) killed mid-game; both players resumed on instance ${other + 1} ${(tookMs / 1000).toFixed(1)} s after the kill at ticks ${ticks.join(', ')}; stored (${stored.endReason}), replays re-simulate`);
    await cluster.instances[hostIndex]!.start();
    return { problems, lines, matchId };
  } catch (error) {
    problems.push(`versus host killed: ${error instanceof Error ? error.message : String(error)}`);
    return { problems, lines, matchId: null };
  } finally {
    for (const p of players) p.close();
    redis.disconnect();
  }
}
