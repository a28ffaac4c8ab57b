// The rooms side of the cluster test's kill (bench/load/run.ts --cluster --kill): a guest's room set
// against a bot is played at the versus home (which hosts rooms and their sets, decision 0034); the
// home is killed (SIGKILL) mid-game. The guest's page dials the other instance and resumes: the
// `rresume` waits there until that instance holds the home and has taken the set up from its
// checkpoint on Redis. The set then plays to its time limit and must be stored once (the caller
// counts the rows), holding what was played before the kill.
import { Redis } from 'ioredis';
import { DEFAULT_ROOM_RULES, keyId } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import type { WireEvent } from '@/lib/live/wire';
import type { Cluster } from '@/tests/support/cluster';
import { LiveClient } from '@/tests/support/live-client';
import { HANDLING } from '@/tests/support/versus-client';

type Result = { problems: string[]; lines: string[]; matchId: string | null };
type Msg<T extends ServerMessage['t']> = Extract<ServerMessage, { t: T }>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const HARD = keyId('hardDrop');
/** One game of 20 s: it outlasts the countdown, the kill and the take-up (≤ 6.5 s), then ends by time. */
const RULES = { ...DEFAULT_ROOM_RULES, firstTo: 1, timeLimitTicks: 20 * 60 };

/**
 * A guest's page in a room set: a batch every 100 ms up to the game's clock, a hard drop every
 * 10 s (a slow player: the game ends by time, not by a top-out). `resume` moves it to a new socket.
 */
class RoomGuest {
  /** Its set (from `rmatch`, which may come in the same frame as the set's first `rbegin`). */
  matchId = '';
  token = '';
  private seq = 0;
  private sent = 0;
  private startsAt = Infinity;
  private game = -1;
  private timer: NodeJS.Timeout | null = null;
  acked = 0;

  constructor(public client: LiveClient) {
    this.listen();
  }

  private listen(): void {
    const client = this.client;
    client.onMessage = (m) => {
      if (client !== this.client) return;
      if ((m.t === 'rgame' || m.t === 'rover') && m.matchId === this.matchId) this.game = -1; // as a page: no batch after its game ended
      if (m.t === 'rmatch') Object.assign(this, { matchId: m.matchId, token: m.resumeToken ?? '' });
      if (m.t === 'rbegin' && m.matchId === this.matchId) Object.assign(this, { game: m.game, seq: 0, sent: 0, startsAt: performance.now() + m.startsInMs });
      if (m.t === 'ack' && m.stream === this.matchId) this.acked = Math.max(this.acked, m.tick);
      return m.t === 'ack' || m.t === 'deal' || m.t === 'rframes' || m.t === 'rgarbage' || m.t === 'rbegin';
    };
  }

  play(): void {
    this.timer = setInterval(() => {
      const tick = Math.floor(((performance.now() - this.startsAt) * 60) / 1000);
      if (this.game < 0 || tick <= this.sent) return;
      const events: WireEvent[] = [];
      for (let t = this.sent; t < tick; t++) if (t % 600 === 10 || t % 600 === 12) events.push([t, HARD, t % 600 === 10 ? 1 : 0]);
      this.client.send({ t: 'inputs', stream: this.matchId, game: this.game, seq: ++this.seq, tick, events });
      this.sent = tick;
    }, 100);
  }

  /**
   * The socket is gone (its instance killed): a new one, same guest, takes the seat up again. As
   * the browser's room session, it dials again when that socket is closed (1012: it spoke to the
   * home just gone; 1013: the take-up is busy) and sends its resume again.
   */
  async resume(baseURL: string, cookie: string, address: string): Promise<{ resumed: Msg<'rresumed'>; dials: number }> {
    this.game = -1; // as a page: no batch until the seat is taken up again
    for (let dials = 1; dials <= 10; dials++) {
      this.client = await LiveClient.connect(baseURL, { cookie, address });
      this.listen();
      this.client.send({ t: 'resume', of: { kind: 'set', id: this.matchId }, token: this.token });
      const closed = this.client.closed.then(({ code }) => code);
      const resumed = await Promise.race([this.client.next('rresumed', (m) => m.matchId === this.matchId, 30_000), closed]);
      if (typeof resumed === 'number') {
        await sleep(500);
        continue;
      }
      Object.assign(this, { game: resumed.game, seq: resumed.lastSeq, sent: resumed.tick });
      return { resumed, dials };
    }
    throw new Error('the resume was closed 10 times');
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.client.close();
  }
}

export async function roomHomeKilled(cluster: Cluster): Promise<Result> {
  const problems: string[] = [];
  const lines: string[] = [];
  const urls = [cluster.instances[0]!.url, cluster.instances[1]!.url];
  const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 2 });
  const address = '10.252.3.1';
  let guest: RoomGuest | null = null;
  let down = -1;
  /** Which instance holds the versus home now (-1: none of them); the earlier kills moved it about. */
  const holder = async () => {
    const home = await redis.get('linefall:live:versus:home');
    return cluster.instances.findIndex((s) => home?.startsWith(`${s.pid()}-`));
  };
  try {
    let homeIndex = -1;
    for (let t = 0; t < 40 && homeIndex < 0; t++) if ((homeIndex = await holder()) < 0) await sleep(500); // a restarted instance may take a moment
    if (homeIndex < 0) return (problems.push('no instance holds the versus home'), { problems, lines, matchId: null });
    const other = 1 - homeIndex;
    const client = await LiveClient.connect(urls[homeIndex]!, { address });
    const g = (guest = new RoomGuest(client));
    client.send({ t: 'rcreate', mode: 'battle', size: 2, rules: RULES, bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: HANDLING });
    const { code } = await client.next('rroom', () => true, 15_000);
    client.send({ t: 'rready', code, ready: true });
    client.send({ t: 'rstart', code });
    const match = await client.next('rmatch', (m) => m.code === code, 15_000);
    g.play();
    await sleep(7_000); // the countdown, then about 4 s of play
    const before = g.acked;
    if ((await holder()) !== homeIndex) return (problems.push('the versus home moved before the kill: the set would not need a take-up'), { problems, lines, matchId: null });
    const killedAt = performance.now();
    await cluster.kill((down = homeIndex));
    const { resumed, dials } = await g.resume(urls[other]!, client.setCookies.map((c) => c.split(';')[0]).join('; '), address);
    const tookMs = performance.now() - killedAt;
    // The home writes its sets each second (60 ticks): a take-up may miss that much, never more.
    if (before < 60 || resumed.tick < before - 90) problems.push(`the room set was taken up from too early a point (tick ${resumed.tick}; ${before} acknowledged before the kill): what was played before it was lost`);
    if ((await holder()) !== other) problems.push(`the instance that took the set up (instance ${other + 1}) does not hold the versus home`);
    // A game the time limit ends with no row sent either side is a draw, and the set plays another:
    // the bot does not always send one in 20 s, so several games may come before the set's end.
    const over = await g.client.next('rover', (m) => m.matchId === match.matchId, 180_000);
    if (!over.stored) problems.push(`the room set taken up ended unstored: ${JSON.stringify(over)}`);
    const ended = await g.client.next('rgame', (m) => m.matchId === match.matchId, 1_000);
    if (ended.tick < resumed.tick + 60) problems.push(`the room set did not play on after it was taken up (taken up at tick ${resumed.tick}, ended at ${ended.tick}, ${ended.reason})`);
    lines.push(`room set ${match.matchId}: the versus home (instance ${homeIndex + 1}) killed mid-game; its guest resumed on instance ${other + 1} ${(tookMs / 1000).toFixed(1)} s after the kill (${dials} dial${dials === 1 ? '' : 's'}) at tick ${resumed.tick} (${before} acknowledged before it); the set played on to tick ${ended.tick} (${ended.reason}), stored`);
    return { problems, lines, matchId: match.matchId };
  } catch (error) {
    problems.push(`room home killed: ${error instanceof Error ? error.message : String(error)}`);
    return { problems, lines, matchId: null };
  } finally {
    guest?.stop();
    redis.disconnect();
    if (down >= 0) await cluster.instances[down]!.start().catch((e: unknown) => problems.push(`the killed instance did not start again: ${String(e)}`));
  }
}
