// The live side of the cluster load test (bench/load/run.ts --cluster): a signed-in player's live
// game hosted by one instance (connected to it directly), watched by a spectator connected to the
// other, while the burst goes through nginx. If the host is killed, the player reconnects through
// nginx as the browser does (hello.resume with its setup, then its whole log again when the game
// was taken up from the ticket) and plays on to the end; then it POSTs the replay.
import { decodeReplay, encodeReplay, simulateReplay, type Handling } from '@/lib/engine';
import { toWireEvent, type ServerMessage } from '@/lib/live/protocol';
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
  /** Plays to the end (reconnecting through the proxy when needed) and submits; the POST's answer. */
  finish(): Promise<{ status: number; ranked: boolean; reconnects: number }>;
};

export async function startCrossInstanceGame(o: { host: string; other: string; proxy: string; cookie: string }): Promise<CrossInstanceGame> {
  const statuses: ServerMessage[] = [];
  let client = await LiveClient.connect(o.host, { address: ADDRESS, cookie: o.cookie });
  client.onMessage = (m) => m.t === 'status' && statuses.push(m);
  client.send({ t: 'hello', v: 1 });
  await client.next('welcome');
  const run = await playLive(client, { ...OPTIONS, stopAfterBatches: 10 });

  const spectator = await LiveClient.connect(o.other, { address: '10.250.0.2' });
  spectator.send({ t: 'watch', gameId: run.gameId });
  const watching = await spectator.next('watching', (m) => m.gameId === run.gameId);
  await continueLive(client, run, { ...OPTIONS, stopAfterBatches: 10 });
  let frames = 0;
  for (;;) {
    const frame = await spectator.next('frame', (m) => m.gameId === run.gameId, 3_000).catch(() => null);
    if (!frame || ++frames >= 5) break;
  }
  const listed = (await (await fetch(`${o.other}/api/live`, { headers: { 'x-forwarded-for': '10.250.0.3' } })).json()) as { games: Array<{ gameId: string }> };
  const seen = {
    watching: watching.events.length > 0, frames, playerSawSpectator: statuses.some((m) => m.t === 'status' && m.spectators >= 1),
    listedElsewhere: listed.games.some((g) => g.gameId === run.gameId),
  };

  return {
    gameId: run.gameId,
    seen,
    async finish() {
      // `over` is caught here, whichever connection brings it: a chunk of play that ended early
      // leaves its own wait for `over` behind on the client, which would take the message.
      let over: Over | null = null;
      let overArrived: () => void = () => {};
      const arrived = new Promise<'over'>((resolve) => (overArrived = () => resolve('over')));
      const catchOver = (c: LiveClient) => {
        c.onMessage = (m) => {
          if (m.t !== 'over' || m.gameId !== run.gameId) return;
          over = m;
          overArrived();
        };
      };
      catchOver(client);
      let reconnects = 0;
      let playing: Promise<unknown> = Promise.resolve();
      while (!over) {
        const closed = client.closed.then(() => 'closed' as const);
        playing = continueLive(client, run, { ...OPTIONS, stopAfterBatches: 5 });
        const step = await Promise.race([playing.then(() => 'played' as const), closed, arrived]);
        if (step === 'over') break;
        if (step === 'closed' || client.ws.readyState !== client.ws.OPEN) {
          // Let the chunk in flight stop ticking (it ends after its batches, or waits for an `over` that will not come).
          await Promise.race([playing, new Promise((resolve) => setTimeout(resolve, 1_000))]);
          client = await resume(o.proxy, o.cookie, run, catchOver);
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
      spectator.close();
      client.close();
      const body = JSON.stringify({ replay: run.encoded, claimed: claimOf(simulateReplay(decodeReplay(run.encoded!))) });
      for (let attempt = 0; ; attempt++) {
        const r = await fetch(`${o.proxy}/api/games/${run.gameId}/replay`, {
          method: 'POST', body, headers: { 'content-type': 'application/json', cookie: o.cookie, 'x-forwarded-for': ADDRESS },
        }).catch(() => null);
        if ((r && ![502, 503, 504].includes(r.status)) || attempt === 30) return { status: r?.status ?? 0, ranked: ended.ranked, reconnects };
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    },
  };
}

/** What the browser does after a dropped socket (lib/client/live/session.ts), through the proxy. */
async function resume(proxy: string, cookie: string, run: LiveGameRun, prepare: (c: LiveClient) => void): Promise<LiveClient> {
  for (let attempt = 0; ; attempt++) {
    try {
      const c = await LiveClient.connect(proxy, { address: ADDRESS, cookie });
      prepare(c);
      const tick = run.game.snapshot().tick;
      c.send({ t: 'hello', v: 1, resume: { gameId: run.gameId, token: run.resumeToken, setup: { handling: HANDLING, nextCount: 5, tick } } });
      const welcome = await c.next('welcome', () => true, 15_000);
      if (!welcome.resumed) throw new Error('resume refused');
      try {
        run.game.deal(welcome.resumed.from, welcome.resumed.pieces);
      } catch {
        // pieces it already has
      }
      if (welcome.resumed.lastSeq < run.seq) {
        // Taken up from the ticket by another instance: the whole log again, as one catch-up batch.
        const events = run.game.replay().events.filter((e) => e.tick < tick);
        run.seq = 1;
        c.send({ t: 'inputs', gameId: run.gameId, seq: 1, tick, events: events.map(toWireEvent) });
      }
      return c;
    } catch (error) {
      if (attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
