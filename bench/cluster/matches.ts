// `npm run bench:cluster -- --matches=200`: versus matches across 2 instances, none on a home.
// Each pair's room is made on one instance and joined from the other, alternately, so the home
// (which pairs) places half the matches on each (a match is hosted on seat 0's instance: 0018).
// Bots play at ~3 pieces a second over real sockets, a batch every 100 ms. With `kill`, instance 1
// is killed (SIGKILL) mid-game: its players, and the players of the matches it hosted, reconnect
// to instance 2 and resume (the matches it hosted are taken up there from their checkpoints).
// Measured: how many matches each instance hosts, matches lost (not stored once), and delivery
// (a batch sent → its `ack`) p50/p99 over the whole run and in the 15 s after the kill (the same
// window of a run without one).
import { Redis } from 'ioredis';
import type { Cluster } from '@/tests/support/cluster';
import { queryPostgres } from '@/tests/support/postgres';
import { HANDLING, VersusPlayer, type Vover } from '@/tests/support/versus-client';

export type MatchesResult = { lines: string[]; lost: number };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => (xs.length ? xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]! : NaN);
/** Runs `f` over `xs`, `n` at a time (400 sockets opened at once would be a test of the accept queue). */
async function inTurns<T, R>(xs: T[], n: number, f: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < xs.length; i += n) out.push(...(await Promise.all(xs.slice(i, i + n).map((x, j) => f(x, i + j)))));
  return out;
}

type Pair = { i: number; players: [VersusPlayer, VersusPlayer]; at: [number, number]; addresses: [string, string]; matchId: string; overs: [Promise<Vover | Error>, Promise<Vover | Error>] };

export async function matchesAcrossInstances(c: Cluster, o: { matches: number; kill: boolean; seconds: number; databaseUrl: string }): Promise<MatchesResult> {
  const urls = c.instances.map((s) => s.url);
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  const acks: Array<{ sentAt: number; ackedAt: number }> = [];
  const pairs: Pair[] = [];
  const play = (p: VersusPlayer, i: number, seat: number) => p.play(600_000, ((i + seat / 2) * 100) / o.matches).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  try {
    // A home left by the previous run's instances holds its lease a few seconds more: wait for one of these.
    for (let t = 0; t < 40; t++) {
      const home = await redis.get('linefall:live:versus:home');
      if (c.instances.some((s) => home?.startsWith(`${s.pid()}-`))) break;
      await sleep(500);
    }
    // Pair i's room is made on instance i % 2 and joined from the other.
    await inTurns(Array.from({ length: o.matches }, (_, i) => i), 20, async (i) => {
      const at: [number, number] = [i % 2, 1 - (i % 2)];
      const addresses: [string, string] = [`10.90.${i >> 8}.${i & 255}`, `10.91.${i >> 8}.${i & 255}`];
      const players = (await Promise.all(at.map((n, s) => VersusPlayer.connect(urls[n]!, { seed: `m${i}-${s}`, mistakes: 0.3, pace: 10 }, { address: addresses[s]!, record: false })))) as [VersusPlayer, VersusPlayer];
      for (const p of players) p.onAck = (sentAt, ackedAt) => acks.push({ sentAt, ackedAt });
      const [a, b] = players;
      a.client.send({ t: 'room_create', mode: 'battle', firstTo: 1, handling: HANDLING, nextCount: 5 });
      const { room } = await a.client.next('room', () => true, 30_000);
      b.client.send({ t: 'room_join', code: room.code, handling: HANDLING, nextCount: 5 });
      await a.client.next('room', (m) => m.room.seats[1] !== null, 30_000);
      a.client.send({ t: 'ready', code: room.code, ready: true });
      b.client.send({ t: 'ready', code: room.code, ready: true });
      const [ma] = await Promise.all([a.client.next('match', () => true, 30_000), b.client.next('match', () => true, 30_000)]);
      pairs.push({ i, players, at, addresses, matchId: ma.matchId, overs: [play(a, i, 0), play(b, i, 1)] });
    });
    const holders = await Promise.all(pairs.map((p) => redis.get(`linefall:live:match-host:${p.matchId}`)));
    const hostIndex = holders.map((h) => c.instances.findIndex((s) => h?.startsWith(`${s.pid()}-`)));
    const hosted = [0, 1].map((n) => hostIndex.filter((x) => x === n).length);
    const lines = [`${pairs.length} matches started: instance 1 hosts ${hosted[0]}, instance 2 hosts ${hosted[1]}${hostIndex.some((x) => x < 0) ? `, ${hostIndex.filter((x) => x < 0).length} not found` : ''}`];

    await sleep(6_000); // the countdown, then about 3 s of play
    const windowFrom = performance.now();
    const resumes: number[] = [];
    let failedResumes = 0;
    if (o.kill) {
      await c.kill(0);
      // Who must come back, all at once as browsers would: the killed instance's sockets, and the players of the matches it hosted.
      await inTurns(pairs, pairs.length, async (pair, k) => {
        await Promise.all(pair.players.map(async (p, s) => {
          if (pair.at[s] !== 0 && hostIndex[k] !== 0) return;
          for (let attempt = 0; attempt < 4; attempt++) {
            try {
              await p.reconnect(urls[1]!, p.guestCookie(), pair.addresses[s]);
              resumes.push(performance.now() - windowFrom);
              pair.overs[s] = play(p, pair.i, s);
              return;
            } catch {
              await sleep(1_000);
            }
          }
          failedResumes++;
        }));
      });
      lines.push(`instance 1 killed mid-game: ${resumes.length} players resumed on instance 2 (p50 ${(pct(resumes, 50) / 1000).toFixed(1)} s, last ${(Math.max(...resumes) / 1000).toFixed(1)} s after the kill), ${failedResumes} could not`);
    }
    const windowTo = windowFrom + 15_000;
    await sleep(Math.max(0, o.seconds * 1000 - (performance.now() - windowFrom) - 6_000));
    // The matches still on end: seat 0 leaves (a forfeit), so each is stored now.
    for (const pair of pairs) pair.players[0].client.send({ t: 'leave', of: { kind: 'match', id: pair.matchId } });
    const ends = await Promise.all(pairs.map((p) => Promise.race([Promise.all(p.overs), new Promise((r) => setTimeout(r, 60_000).unref()).then(() => [new Error('no vover in 60 s'), null])])));
    const storedByVover = ends.filter((e) => e.some((x) => x && !(x instanceof Error) && x.stored)).length;
    const ids = pairs.map((p) => `'${p.matchId}'`).join(',');
    const rows = await queryPostgres<{ id: string; n: number }>(o.databaseUrl, `SELECT "id", count(*)::int AS n FROM "VersusMatch" WHERE "id" IN (${ids}) GROUP BY "id"`);
    const once = rows.filter((r) => r.n === 1).length;
    const lost = pairs.length - once;
    const all = acks.map((a) => a.ackedAt - a.sentAt);
    const inWindow = acks.filter((a) => a.sentAt >= windowFrom && a.sentAt < windowTo).map((a) => a.ackedAt - a.sentAt);
    lines.push(`stored once: ${once} of ${pairs.length} (${storedByVover} players told "stored"); matches lost: ${lost}`);
    lines.push(`delivery (batch → ack), ${all.length} batches: p50 ${pct(all, 50).toFixed(0)} ms, p99 ${pct(all, 99).toFixed(0)} ms; in the 15 s ${o.kill ? 'after the kill' : 'from the same point'} (${inWindow.length} batches): p50 ${pct(inWindow, 50).toFixed(0)} ms, p99 ${pct(inWindow, 99).toFixed(0)} ms`);
    return { lines, lost };
  } finally {
    for (const p of pairs) for (const x of p.players) x.close();
    redis.disconnect();
  }
}
