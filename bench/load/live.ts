// The live side of the cluster load test (bench/load/run.ts --cluster): a signed-in player's live
// game hosted by one instance (connected to it directly), watched by a spectator connected to the
// other, while the burst goes through nginx. If the host is killed, the player reconnects through
// nginx as the browser does (a resume of the game with its setup, then its whole log again when the game
// was taken up from the ticket) and plays on to the end; then it POSTs the replay.
import { batchCuts } from '@/lib/client/live/batch-cuts';
import { decodeReplay, encodeReplay, simulateReplay, type Handling } from '@/lib/engine';
import { LIVE_PROTOCOL_VERSION, toWireEvent, type ServerMessage } from '@/lib/live/protocol';
import { claimOf } from '@/tests/support/replays';
import { continueLive, LiveClient, playLive, type LiveGameOptions, type LiveGameRun } from '@/tests/support/live-client';

const HANDLING: Handling = { das: 10, arr: 2, sdf: 20, dasCut: false };
const OPTIONS: LiveGameOptions = { mode: 'marathon', handling: HANDLING, nextCount: 5, maxPieces: 45, seed: 7 };
const ADDRESS = '10.250.0.1';
type Over = Extract<ServerMessage, { t: 'over' }>;

export type CrossInstanceGame = {
  gameId: string;
  /** What the spectator on the other instance saw before the host was lost. */
  seen: { watching: boolean; frames: number; playerSawSpectator: boolean; listedElsewhere: boolean };
  /**
   * What it saw over the whole game: its catch-ups (a host lost and the game taken up elsewhere
   * gives it another, from there), the frames since the last one, and any error.
   */
  followed: { catchUps: number; framesSinceLast: number; errors: string[] };
  /**
   * Plays to the end (reconnecting through the proxy when needed) and submits; the POST's answer.
   * Fails with what the player saw if that has not happened within FINISH_WITHIN_MS.
   */
  finish(): Promise<{ status: number; ranked: boolean; reconnects: number; timeline: readonly string[] }>;
};

/** Far more than the game, a reconnect and the POST take under the burst: past it, something hangs. */
const FINISH_WITHIN_MS = 180_000;

export async function startCrossInstanceGame(o: { host: string; other: string; proxy: string; cookie: string }): Promise<CrossInstanceGame> {
  const statuses: ServerMessage[] = [];
  const startedAt = performance.now();
  // What the player met, for a failure to explain itself: reconnects, errors, the end.
  const timeline: string[] = [];
  const note = (what: string) => timeline.push(`${((performance.now() - startedAt) / 1000).toFixed(1)} s ${what}`);
  // A healthy game meets no error: the first one ends the run with the timeline, instead of
  // playing on against a server that has stopped taking the game.
  let failWith: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (failWith = reject));
  failed.catch(() => {}); // raced in finish(); never left unhandled before that
  const noteErrors = (c: LiveClient) => {
    const before = c.onMessage;
    c.onMessage = (m) => {
      const handled = before?.(m) === true;
      if (m.t === 'error') {
        note(`error ${m.code}: ${m.message}`);
        failWith(new Error(`the live game met an error:\n    ${timeline.join('\n    ')}`));
      }
      return handled;
    };
  };
  let client = await LiveClient.connect(o.host, { address: ADDRESS, cookie: o.cookie });
  client.onMessage = (m) => {
    if (m.t === 'status') statuses.push(m);
  };
  noteErrors(client);
  client.send({ t: 'hello', v: LIVE_PROTOCOL_VERSION });
  await client.next('welcome');
  const run = await playLive(client, { ...OPTIONS, stopAfterBatches: 10 });

  const spectator = await LiveClient.connect(o.other, { address: '10.250.0.2' });
  const followed = { catchUps: 0, framesSinceLast: 0, errors: [] as string[] };
  spectator.onMessage = (m) => {
    if (m.t === 'watching' && m.gameId === run.gameId) {
      followed.catchUps++;
      followed.framesSinceLast = 0;
    }
    if (m.t === 'frame' && m.gameId === run.gameId) followed.framesSinceLast++;
    if (m.t === 'error') followed.errors.push(`${m.code}: ${m.message}`);
  };
  spectator.send({ t: 'watch', of: { kind: 'game', id: run.gameId } });
  const watching = await spectator.next('watching', (m) => m.gameId === run.gameId);
  await continueLive(client, run, { ...OPTIONS, stopAfterBatches: 10 });
  let frames = 0;
  for (;;) {
    const frame = await spectator.next('frame', (m) => m.gameId === run.gameId, 3_000).catch(() => null);
    if (!frame || ++frames >= 5) break;
  }
  const listed = (await (await fetch(`${o.other}/api/live`, { headers: { 'x-forwarded-for': '10.250.0.3' } })).json()) as { games: Array<{ gameId: string }> };
  const seen = {
    watching: watching.state !== undefined || watching.events.length > 0, frames, playerSawSpectator: statuses.some((m) => m.t === 'status' && m.spectators >= 1),
    listedElsewhere: listed.games.some((g) => g.gameId === run.gameId),
  };

  let abandoned = false;
  return {
    gameId: run.gameId,
    seen,
    followed,
    finish() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the live game did not finish within ${FINISH_WITHIN_MS / 1000} s:\n    ${timeline.join('\n    ')}`)), FINISH_WITHIN_MS);
      });
      return Promise.race([play(), late, failed]).finally(() => {
        abandoned = true;
        clearTimeout(timer);
        spectator.close();
        client.close();
      });
    },
  };

  async function play(): Promise<{ status: number; ranked: boolean; reconnects: number; timeline: readonly string[] }> {
    // `over` is caught here, whichever connection brings it: a chunk of play that ended early
    // leaves its own wait for `over` behind on the client, which would take the message.
    let over: Over | null = null;
    let overArrived: () => void = () => {};
    const arrived = new Promise<'over'>((resolve) => (overArrived = () => resolve('over')));
    const catchOver = (c: LiveClient) => {
      c.onMessage = (m) => {
        if (m.t !== 'over' || m.gameId !== run.gameId) return;
        over = m;
        note(`over: ranked ${m.ranked}`);
        overArrived();
      };
      noteErrors(c);
    };
    catchOver(client);
    let reconnects = 0;
    let playing: Promise<unknown> = Promise.resolve();
    while (!over) {
      if (abandoned) throw new Error('abandoned');
      const closed = client.closed.then(() => 'closed' as const);
      playing = continueLive(client, run, { ...OPTIONS, stopAfterBatches: 5 });
      const step = await Promise.race([playing.then(() => 'played' as const), closed, arrived]);
      if (step === 'over') break;
      if (step === 'closed' || client.ws.readyState !== client.ws.OPEN) {
        // Let the chunk in flight stop ticking (it ends after its batches, or waits for an `over` that will not come).
        note(`connection lost at tick ${run.game.snapshot().tick}`);
        await Promise.race([playing, new Promise((resolve) => setTimeout(resolve, 1_000))]);
        client = await resume(o.proxy, o.cookie, run, catchOver, note);
        reconnects++;
      }
    }
    await Promise.race([playing, new Promise((resolve) => setTimeout(resolve, 500))]);
    const ended = over as Over | null; // set by catchOver, which the compiler cannot follow
    if (!ended) throw new Error('the live game ended without its over message');
    run.over = ended;
    if (!run.encoded) {
      run.game.reveal(ended.seed);
      run.encoded = encodeReplay(run.game.replay());
    }
    note('game over; posting the replay');
    const body = JSON.stringify({ replay: run.encoded, claimed: claimOf(simulateReplay(decodeReplay(run.encoded!))) });
    for (let attempt = 0; ; attempt++) {
      const r = await fetch(`${o.proxy}/api/games/${run.gameId}/replay`, {
        method: 'POST', body, headers: { 'content-type': 'application/json', cookie: o.cookie, 'x-forwarded-for': ADDRESS }, signal: AbortSignal.timeout(30_000),
      }).catch(() => null);
      note(`POST answered ${r?.status ?? 'nothing'}`);
      if ((r && ![502, 503, 504].includes(r.status)) || attempt === 30) return { status: r?.status ?? 0, ranked: ended.ranked, reconnects, timeline };
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** What the browser does after a dropped socket (lib/client/live/session.ts), through the proxy. */
async function resume(proxy: string, cookie: string, run: LiveGameRun, prepare: (c: LiveClient) => void, note: (what: string) => void): Promise<LiveClient> {
  for (let attempt = 0; ; attempt++) {
    try {
      const c = await LiveClient.connect(proxy, { address: ADDRESS, cookie });
      prepare(c);
      const tick = run.game.snapshot().tick;
      const resumed = await c.resume(run.gameId, run.resumeToken, { handling: HANDLING, nextCount: 5, tick });
      note(`resumed at tick ${tick}: the server had batch ${resumed.lastSeq} of ${run.seq}, tick ${resumed.tick}`);
      try {
        run.game.deal(resumed.from, resumed.pieces);
      } catch {
        // pieces it already has
      }
      if (resumed.lastSeq < run.seq) {
        // Taken up from the ticket by another instance: the whole log again, cut into batches the
        // server takes, as the browser cuts it (a game a few seconds old has more inputs than one holds).
        const events = run.game.inputs.filter((e) => e.tick < tick);
        run.seq = 0;
        let sent = 0;
        for (const cut of batchCuts(events.map((e) => e.tick), 0, tick)) {
          c.send({ t: 'inputs', stream: run.gameId, seq: ++run.seq, tick: cut.tick, events: events.slice(sent, sent + cut.count).map(toWireEvent) });
          sent += cut.count;
        }
        note(`resent ${events.length} inputs in ${run.seq} batch(es)`);
      }
      return c;
    } catch (error) {
      note(`resume attempt ${attempt + 1}: ${error instanceof Error ? error.message : String(error)}`);
      if (attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
