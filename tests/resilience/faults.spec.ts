import { expect, test } from '@playwright/test';
import { encodeReplay } from '@/lib/engine';
import { credentialsSignIn, errorCode, newClient, newTicket, signUpAndIn, waitForGameTime, type Ticket } from '@/tests/api/client';
import { rawRequest } from '@/tests/api/raw-http';
import { startGame, tap, topOut } from '@/tests/e2e/play-helpers';
import { LiveClient, playLive } from '@/tests/support/live-client';
import { claimOf, hardDropGame, type Played } from '@/tests/support/replays';
import { createRig, type Kind, type Rig } from '@/tests/resilience/database';

// Faults on the production server, for each database: the database disappears in the middle of
// submissions and while a browser finishes a game, and the server restarts during play.

const kinds: Kind[] = process.env.E2E_POSTGRES === '0' ? ['pglite'] : ['pglite', 'postgres'];

for (const kind of kinds) {
  test.describe(`on ${kind}`, () => {
    test.describe.configure({ mode: 'serial' });
    let rig: Rig;
    test.beforeAll(async () => {
      test.setTimeout(120_000);
      rig = await createRig(kind);
    });
    test.afterAll(async () => rig?.dispose());

    test('the database goes away mid-submission: 503 with Retry-After, nothing half-written, every game stored once after', async () => {
      test.setTimeout(180_000);
      const url = rig.server.url;
      type Job = { api: Awaited<ReturnType<typeof newClient>>; ticket: Ticket; played: Played };
      const jobs: Job[] = [];
      for (let player = 0; player < 4; player++) {
        const api = await newClient(url);
        await signUpAndIn(api);
        for (let game = 0; game < 8; game++) {
          const ticket = await newTicket(api, 'marathon');
          jobs.push({ api, ticket, played: hardDropGame('marathon', ticket.seed) });
        }
      }
      await waitForGameTime(jobs.at(-1)!.ticket, jobs.at(-1)!.played);
      const send = (job: Job) =>
        job.api.post(`/api/games/${job.ticket.gameId}/replay`, { data: { replay: encodeReplay(job.played.replay), claimed: claimOf(job.played.result) } });
      // Each player's games one after another, as the browser's queue sends them (the server verifies
      // only a few of one player's games at once), the four players at once; answers in `jobs` order.
      const sendAll = async () => {
        const players = [...new Set(jobs.map((j) => j.api))].map((api) => jobs.filter((j) => j.api === api));
        const answers = await Promise.all(players.map(async (mine) => {
          const out = [];
          for (const job of mine) out.push(await send(job));
          return out;
        }));
        return answers.flat();
      };

      // Submissions under way, and the database goes away under them. On PostgreSQL their queries
      // are held first, so the cut provably lands in the middle of them; the embedded database is
      // closed between two of the requests' queries, wherever the server is.
      const holding = rig.holdQueries?.() ?? null;
      const inFlight = sendAll();
      if (holding) await expect.poll(() => holding.held(), { timeout: 30_000 }).toBeGreaterThan(0);
      await rig.takeDatabaseAway();
      const first = await inFlight;
      const cutOff = first.filter((r) => r.status() === 503).length;
      test.info().annotations.push({ type: 'in flight at the cut', description: `${first.length - cutOff} stored, ${cutOff} answered 503` });
      // Requests really were cut: with every query held, none could finish; on PGlite at least one
      // was still to touch the database (each player's later games are sent after the cut).
      if (holding) expect(cutOff).toBe(jobs.length);
      else expect(cutOff).toBeGreaterThan(0);
      for (const response of first) {
        // HTTP-ticket games: stored and held off the boards as unpaced (202), which is all this
        // test needs of them: storage under an outage (live games are tests/api/live.spec.ts's).
        expect([202, 503], await response.text()).toContain(response.status());
        if (response.status() === 503) {
          expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
          expect((await response.json()).error.code).toBe('database_unavailable');
        }
      }

      // While it is away, every database-backed endpoint says so the same way.
      const api = jobs[0]!.api;
      for (const response of [await api.post('/api/games', { data: { mode: 'sprint' } }), await api.get('/api/health'), await api.get('/api/leaderboards/marathon')]) {
        expect(await errorCode(response)).toMatchObject({ status: 503, code: 'database_unavailable' });
        expect(response.headers()['retry-after']).toBe('5');
      }
      expect((await send(jobs[0]!)).status()).toBe(503);
      const signIn = await credentialsSignIn(await newClient(url), 'anyone', 'any-password-1');
      expect(await errorCode(signIn)).toMatchObject({ status: 503, code: 'database_unavailable' });

      // Back: the clients retry what was not confirmed; already-stored games answer as before.
      await rig.giveDatabaseBack();
      await expect.poll(async () => (await api.get('/api/health')).status(), { timeout: 30_000 }).toBe(200);
      const retried = await sendAll();
      for (const [i, response] of retried.entries()) {
        expect([200, 202], `${jobs[i]!.ticket.gameId}: ${await response.text()}`).toContain(response.status());
      }

      // Exactly one stored game per ticket, every ticket spent by its game, and (unpaced) no best.
      const ids = jobs.map((j) => `'${j.ticket.gameId}'`).join(',');
      const rows = await rig.inspect<{ games: number; halfWritten: number; bests: number; orphanBests: number }>(`
        SELECT (SELECT count(*)::int FROM "Game" WHERE "ticketId" IN (${ids})) AS "games",
               (SELECT count(*)::int FROM "GameTicket" t WHERE t."id" IN (${ids})
                  AND (t."usedAt" IS NULL) <> NOT EXISTS (SELECT 1 FROM "Game" g WHERE g."ticketId" = t."id")) AS "halfWritten",
               (SELECT count(*)::int FROM "PersonalBest" WHERE "period" = 'all' AND "mode" = 'marathon') AS "bests",
               (SELECT count(*)::int FROM "PersonalBest" b WHERE NOT EXISTS (SELECT 1 FROM "Game" g WHERE g."id" = b."gameId")) AS "orphanBests"`);
      expect(rows[0]).toEqual({ games: jobs.length, halfWritten: 0, bests: 0, orphanBests: 0 });
    });

    test('a game finished in the browser while the database is away is queued and stored once it returns', async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ baseURL: rig.server.url });
      const page = await context.newPage();
      const game = await startGame(page, 'marathon');
      const gameId = await game.getAttribute('data-game-id');
      await rig.takeDatabaseAway();
      await topOut(page, game);
      const status = page.getByTestId('submit-status');
      await expect(status).toHaveAttribute('data-status', 'queued');
      await expect(status).toContainText('database is unavailable');
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem('linefall:pending-games:v1') ?? '[]').length)).toBe(1);

      await rig.giveDatabaseBack();
      // No click: the page retries on its own once Retry-After has passed.
      await expect(status).toHaveAttribute('data-status', 'verified', { timeout: 45_000 });
      expect(await page.evaluate(() => JSON.parse(localStorage.getItem('linefall:pending-games:v1') ?? '[]').length)).toBe(0);
      // Stored once, and ranked: the host recorded the stream's end once the database was back,
      // so the queued replay matched it instead of being held as stream_incomplete.
      const stored = await rig.inspect<{ n: number; held: string | null }>(
        `SELECT count(*)::int AS n, max("reviewReason") AS held FROM "Game" WHERE "ticketId" = '${gameId}'`,
      );
      expect(stored[0]).toEqual({ n: 1, held: null });
      await context.close();
    });

    test('a versus match decided while the database is away: its result says it is not saved yet, then offers its replay once it is back', async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ baseURL: rig.server.url });
      const page = await context.newPage();
      await page.goto('/versus');
      const card = page.getByRole('region', { name: 'Spar with a bot' });
      await card.getByRole('combobox', { name: 'First to' }).selectOption('1');
      await card.getByRole('button', { name: 'Play the bot' }).click();
      const game = page.getByTestId('versus');
      await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 15_000 });
      const matchId = (await game.getAttribute('data-match'))!;
      await rig.takeDatabaseAway();
      await topOut(page, game, /between|over/);
      const result = page.getByTestId('versus-result');
      // Told within seconds (two tries), not left waiting on a result that does not come.
      await expect(result.getByTestId('store-pending')).toBeVisible({ timeout: 20_000 });
      await expect(result.getByRole('link', { name: 'Watch the replay' })).toHaveCount(0);
      for (const width of [1280, 360]) {
        await page.setViewportSize({ width, height: 800 });
        await expect(result.getByTestId('store-pending')).toBeVisible();
        // The fields are fitted to the new width by script after the resize (a frame or more under load): polled.
        await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `no sideways scrolling at ${width} px`).toBe(true);
      }
      // No click: the server tries on, and the page hears once it is stored.
      await rig.giveDatabaseBack();
      await expect(result.getByRole('link', { name: 'Watch the replay' })).toBeVisible({ timeout: 45_000 });
      await expect(result.getByTestId('store-pending')).toHaveCount(0);
      const stored = await rig.inspect<{ n: number }>(`SELECT count(*)::int AS n FROM "VersusMatch" WHERE "id" = '${matchId}'`);
      expect(stored[0]).toEqual({ n: 1 });
      await context.close();
    });

    test('a graceful stop writes each live game\'s last acknowledged batch on its ticket and closes its socket as a restart', async () => {
      test.setTimeout(60_000);
      const client = await LiveClient.connect(rig.server.url, { address: '10.91.0.1' });
      // 2.5 s of play: checkpoints come every 2 s, so the last one is almost never at the last batch.
      const run = await playLive(client, { mode: 'marathon', seed: 5, stopAfterBatches: 25 });
      const ack = await client.next('ack', (m) => m.stream === run.gameId && m.seq === run.seq);
      expect(await rig.server.stop(), 'a stop that handed everything over exits 0').toBe(0);
      expect((await client.closed).code).toBe(1012);
      const [row] = await rig.inspect<{ tick: number; inputs: number }>(`SELECT "liveAckTick" AS tick, "liveAckInputs" AS inputs FROM "GameTicket" WHERE "id" = '${run.gameId}'`);
      expect(row).toEqual({ tick: ack.tick, inputs: run.game.inputs.length });
      if (!rig.server.pid()) await rig.server.start();
    });

    test('a stop held up by a request whose body never finishes exits 1 at its 10 s limit, not at the request\'s 60 s', async () => {
      test.setTimeout(60_000);
      // A ticket request that declared 100 bytes and sent ten: its handler waits for the rest, so
      // the server cannot close while the request lasts (its timeout is 60 s, serve.mjs).
      const held = rawRequest(rig.server.url, { method: 'POST', path: '/api/games', headers: { 'content-type': 'application/json' }, declaredLength: 100, chunks: ['{"mode":"s'], keepOpen: true });
      held.catch(() => {}); // the process exits under it
      await new Promise((r) => setTimeout(r, 500));
      const stopping = Date.now();
      expect(await rig.server.stop(), 'a stop short of a finished drain exits 1').toBe(1);
      // Not a crash on the signal (at once) and not the request's own end (60 s): the stop's limit.
      expect(Date.now() - stopping).toBeGreaterThan(9_000);
      expect(Date.now() - stopping).toBeLessThan(30_000);
      await rig.server.start();
    });

    test('the server restarts during play: the live game is taken up from its ticket, finished and ranked', async ({ browser }) => {
      test.setTimeout(120_000);
      const context = await browser.newContext({ baseURL: rig.server.url });
      const page = await context.newPage();
      const game = await startGame(page, 'marathon');
      const gameId = await game.getAttribute('data-game-id');
      for (let i = 0; i < 3; i++) await tap(page, game, 'Space', 'pieces');
      await rig.server.stop();
      await rig.server.start();
      await topOut(page, game);
      await expect(page.getByTestId('submit-status')).toHaveAttribute('data-status', 'verified', { timeout: 30_000 });
      // The new process dealt the rest and watched the clock: the game is on the boards, not held.
      const stored = await rig.inspect<{ n: number; held: string | null; digest: string | null }>(
        `SELECT count(*)::int AS n, max(g."reviewReason") AS held, max(t."streamDigest") AS digest
         FROM "Game" g JOIN "GameTicket" t ON t."id" = g."ticketId" WHERE g."ticketId" = '${gameId}'`,
      );
      expect(stored[0]!.n).toBe(1);
      expect(stored[0]!.held).toBeNull();
      expect(stored[0]!.digest).not.toBeNull();
      await context.close();
    });
  });
}
