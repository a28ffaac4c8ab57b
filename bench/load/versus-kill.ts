// The versus side of the cluster test's kill (bench/load/run.ts --cluster --kill): a quick match
// between guests on the two instances; the instance hosting it (its lease on Redis says which) is
// killed (SIGKILL) mid-game; both players reconnect to the other instance and resume, the match is
// taken up there from its checkpoint and plays on, then one leaves. It must be stored once (the
// caller counts the rows), with replays that re-simulate, and hold what was played before the kill.
// Then the same for a match against the sparring bot: the instance its player is on hosts it; killed,
// the player's resume on the other takes it up and seats a new bot there, which plays on.
// A spectator on each instance watches the quick match: both must watch it again where it is taken
// up (the one on the survivor without dialling again, the other after it does) and see it to its end.
import { Redis } from 'ioredis';
import { LiveClient } from '@/tests/support/live-client';
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
  const closers: LiveClient[] = [];
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  try {
    const addresses = ['10.252.1.1', '10.252.1.2'];
    for (const [i, url] of urls.entries()) players.push(await VersusPlayer.connect(url!, { seed: `kill-${i}`, mistakes: 0.3, pace: 10 }, { address: addresses[i]! }));
    for (const p of players) p.client.send({ t: 'queue', mode: 'battle', ranked: false, handling: HANDLING, nextCount: 5 });
    const [m0, m1] = await Promise.all(players.map((p) => p.client.next('match', () => true, 15_000)));
    if (m0!.matchId !== m1!.matchId) problems.push(`the two guests were not paired together: ${m0!.matchId}, ${m1!.matchId}`);
    const matchId = m0!.matchId;
    for (const p of players) void p.play().catch(() => {});
    const watchers = await Promise.all(urls.map((url, i) => LiveClient.connect(url!, { address: `10.252.1.${5 + i}` })));
    closers.push(...watchers);
    for (const w of watchers) w.send({ t: 'watch', of: { kind: 'match', id: matchId } });
    await Promise.all(watchers.map((w) => w.next('vwatching', (m) => m.matchId === matchId, 10_000)));
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
    // What they saw before the kill is put aside: a frame counted below came from the match's next host.
    for (const w of watchers) w.inbox.length = 0;
    const watchedAgain = watchers.map(async (w, i) => {
      // The one on the killed instance dials the survivor and asks again, as the spectator page does.
      const client = i === other ? w : await LiveClient.connect(urls[other]!, { address: `10.252.1.${7 + i}` });
      if (client !== w) {
        closers.push(client);
        client.send({ t: 'watch', of: { kind: 'match', id: matchId } });
      }
      await client.next('vwatching', (m) => m.matchId === matchId, 25_000);
      const tookMs = performance.now() - killedAt;
      await client.next('vframe', (m) => m.matchId === matchId, 10_000);
      return { client, tookMs };
    }).map((w) => w.catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))));
    // Both come back through the surviving instance (the one connected there was closed on its next batch, or is about to be).
    const resumed = await Promise.all(players.map((p, i) => p.reconnect(urls[other]!, p.guestCookie(), addresses[i]).catch((e: unknown) => e)));
    const tookMs = performance.now() - killedAt;
    for (const [i, r] of resumed.entries()) if (r instanceof Error || (r as { matchId?: string }).matchId !== matchId) problems.push(`player ${i} did not resume the match after the kill: ${String(r instanceof Error ? r.message : JSON.stringify(r))}`);
    const ticks = resumed.map((r) => (r instanceof Error ? -1 : (r as { tick: number }).tick));
    if (ticks.some((t) => t < 60)) problems.push(`the match was taken up from too early a point (ticks ${ticks.join(', ')}): what was played before the kill was lost`);
    const overs = players.map((p) => p.play());
    const watched = await Promise.all(watchedAgain);
    for (const [i, w] of watched.entries()) if (w instanceof Error) problems.push(`the spectator on instance ${i + 1} did not watch the match again after the kill: ${w.message}`);
    await sleep(3_000);
    players[0]!.client.send({ t: 'leave', of: { kind: 'match', id: matchId } });
    const ends = await Promise.all(overs.map((o) => o.catch((e: unknown) => e)));
    if (ends.some((e) => e instanceof Error || !(e as { stored?: boolean }).stored)) problems.push(`the match taken up did not end stored: ${ends.map((e) => (e instanceof Error ? e.message : JSON.stringify(e))).join(' | ')}`);
    for (const [i, w] of watched.entries()) {
      if (w instanceof Error) continue;
      await w.client.next('vover', (m) => m.matchId === matchId, 10_000).catch(() => problems.push(`the spectator on instance ${i + 1} did not see the match taken up end`));
    }
    const stored = await fetchStoredMatch(cluster.url, matchId, { 'x-forwarded-for': '10.252.1.3' });
    problems.push(...resimulationProblems(stored));
    const again = watched.map((w, i) => `instance ${i + 1}'s ${w instanceof Error ? 'did not' : `${(w.tookMs / 1000).toFixed(1)} s after`}`).join(', ');
    lines.push(`match ${matchId}: its host (instance ${hostIndex + 1}) killed mid-game; both players resumed on instance ${other + 1} ${(tookMs / 1000).toFixed(1)} s after the kill at ticks ${ticks.join(', ')}; stored (${stored.endReason}), replays re-simulate; its spectators watched it again (${again})`);
    await cluster.instances[hostIndex]!.start();
    return { problems, lines, matchId };
  } catch (error) {
    problems.push(`versus host killed: ${error instanceof Error ? error.message : String(error)}`);
    return { problems, lines, matchId: null };
  } finally {
    for (const p of players) p.close();
    for (const c of closers) c.close();
    redis.disconnect();
  }
}

export async function sparringHostKilled(cluster: Cluster): Promise<Result> {
  const problems: string[] = [];
  const lines: string[] = [];
  const urls = [cluster.instances[0]!.url, cluster.instances[1]!.url];
  const address = '10.252.2.1';
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  let player: VersusPlayer | null = null;
  try {
    // A careful player, so the first game outlasts the kill.
    const p = (player = await VersusPlayer.connect(urls[0]!, { seed: 'spar-kill', mistakes: 0, pace: 8 }, { address }));
    p.client.send({ t: 'spar', mode: 'battle', firstTo: 2, bot: { pps: 2, style: 'tidy' }, handling: HANDLING, nextCount: 5 });
    const { matchId } = await p.client.next('match', () => true, 15_000);
    void p.play().catch(() => {});
    await sleep(6_000); // the countdown, then 3 s of play
    const holder = await redis.get(`linefall:live:match-host:${matchId}`);
    if (!holder?.startsWith(`${cluster.instances[0]!.pid()}-`)) {
      problems.push(`the sparring match ${matchId} is not held by its player's instance (${holder})`);
      return { problems, lines, matchId };
    }
    const killedAt = performance.now();
    await cluster.kill(0);
    const resumed = await p.reconnect(urls[1]!, p.guestCookie(), address).catch((e: unknown) => e);
    const tookMs = performance.now() - killedAt;
    if (resumed instanceof Error || (resumed as { matchId?: string }).matchId !== matchId) {
      problems.push(`the sparring player did not resume after the kill: ${resumed instanceof Error ? resumed.message : JSON.stringify(resumed)}`);
      return { problems, lines, matchId };
    }
    const { tick, game } = resumed as { tick: number; game: number };
    const over = p.play();
    // The bot's seat, rebuilt on the survivor, plays on: its frames go past where the match was taken up.
    const botTick = () => Math.max(-1, ...p.seat.received.filter((m) => m.t === 'vframe' && m.seat === 1 && m.game === game).map((m) => (m as { tick: number }).tick));
    const deadline = Date.now() + 10_000;
    while (botTick() < tick + 60 && Date.now() < deadline) await sleep(250);
    if (botTick() < tick + 60) problems.push(`the bot did not play on after the take-up (its field at tick ${botTick()}, taken up at ${tick})`);
    p.client.send({ t: 'leave', of: { kind: 'match', id: matchId } });
    const end = await over.catch((e: unknown) => e);
    if (end instanceof Error || !(end as { stored?: boolean }).stored) problems.push(`the sparring match taken up did not end stored: ${end instanceof Error ? end.message : JSON.stringify(end)}`);
    const stored = await fetchStoredMatch(cluster.url, matchId, { 'x-forwarded-for': '10.252.2.3' });
    problems.push(...resimulationProblems(stored));
    lines.push(`sparring match ${matchId}: its host (instance 1) killed mid-game; its player resumed on instance 2 ${(tookMs / 1000).toFixed(1)} s after the kill at tick ${tick}; the bot played on to tick ${botTick()}; stored, replays re-simulate`);
    await cluster.instances[0]!.start();
    return { problems, lines, matchId };
  } catch (error) {
    problems.push(`sparring host killed: ${error instanceof Error ? error.message : String(error)}`);
    return { problems, lines, matchId: null };
  } finally {
    player?.close();
    redis.disconnect();
  }
}
