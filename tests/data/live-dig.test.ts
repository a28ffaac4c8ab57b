import { beforeEach, describe, expect, it } from 'vitest';
import { createDealtGame, createGame, HOLES_AHEAD, holeSequence, MODES, replayConfig, type DealtGame, type Mode } from '@/lib/engine';
import { fromWireEvent, serverMessageSchema, toWireEvent, type ServerMessage } from '@/lib/live/protocol';
import { SpectatorFeed } from '@/lib/client/live/spectator';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { GameHost } from '@/lib/server/live/solo/game-host';
import { getDb } from '@/lib/server/db';
import { issueTicket } from '@/lib/server/games/tickets';
import { playAndSubmit, player, streamLive } from '@/tests/data/play';
import { resetDb } from '@/tests/data/db';
import { botGame } from '@/tests/support/replays';

beforeEach(resetDb);

/**
 * In a ranked live Dig game the browser has no seed, so a garbage row's hole must be as unreadable
 * ahead of time as a piece: the host deals each column a row or two before the row can rise
 * (lib/engine/deal.ts HOLES_AHEAD), never the whole game's up front. What a modified client learns
 * is everything the server sends it, so these tests read every message and count the columns.
 */
describe('live Dig: hole columns are dealt as rows rise, never further ahead', () => {
  /** Every hole column the player's socket was told, by row index; and the rows its field had risen after each message. */
  function spy(mode: Mode) {
    const known = new Map<number, number>();
    const sent: ServerMessage[] = [];
    const learn = (from: number, columns: readonly number[]) => columns.forEach((c, i) => known.set(from + i, c));
    let game: DealtGame | null = null;
    /** The most rows ever known past the rows risen in the field, as the browser's own game counts them. */
    let furthest = -Infinity;
    const onMessage = (raw: ServerMessage) => {
      const m = serverMessageSchema.parse(JSON.parse(JSON.stringify(raw)));
      sent.push(m);
      if (m.t === 'started') {
        learn(0, m.holes ?? []);
        game = createDealtGame({ mode, handling: m.handling, nextCount: m.nextCount, rulesVersion: m.rulesVersion, holes: m.holes }, m.pieces);
      }
      if (m.t === 'deal') {
        if (m.holes) learn(m.holes.from, m.holes.columns);
        game?.deal(m.from, m.pieces);
        if (m.holes) game?.dealHoles(m.holes.from, m.holes.columns);
      }
    };
    /** At an ack, with the game at the batch's end: a batch's deal comes before its ack, and the browser had played the batch. */
    const measure = () => void (game && (furthest = Math.max(furthest, known.size - game.holesRisen)));
    return { known, sent, onMessage, measure, game: () => game!, furthest: () => furthest };
  }

  it.each(['dig10', 'dig18', 'dig100'] as const)('%s: the browser never knows more than two rows past its field, and what it knows is the seed’s', async (mode) => {
    const owner = await player(`dig-${mode}`);
    const ticket = await issueTicket({ live: true, mode, owner });
    const played = botGame(mode, ticket.seed);
    played.replay.nextCount = 5;
    const s = spy(mode);
    // The browser's game follows the stream tick by tick, so after every message the spy knows
    // which rows are in its field; the deals it is sent are counted against that.
    const ticks = new Map<number, ReturnType<typeof fromWireEvent>[]>();
    for (const e of played.replay.events) ticks.set(e.tick, [...(ticks.get(e.tick) ?? []), e]);
    const onMessage = (m: ServerMessage) => {
      s.onMessage(m);
      if (m.t === 'ack') {
        const g = s.game();
        while (g.tickNo < m.tick && !g.over && g.ready) g.tick(ticks.get(g.tickNo)?.map(({ key, down }) => ({ key, down })));
        s.measure();
      }
    };
    const host = await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay, onMessage });
    const field = Math.min(MODES[mode].cheese.field, MODES[mode].cheese.rows);
    const started = s.sent.find((m) => m.t === 'started');
    expect(started?.t === 'started' && started.holes?.length).toBe(Math.min(field + HOLES_AHEAD, MODES[mode].cheese.rows));
    expect(s.furthest()).toBeLessThanOrEqual(HOLES_AHEAD);
    // Every row's column, in order, and the seed's: the browser's replay verifies after the reveal.
    const next = holeSequence(ticket.seed, mode);
    expect([...s.known.keys()]).toEqual([...Array(MODES[mode].cheese.rows).keys()]);
    expect([...s.known.values()]).toEqual(Array.from({ length: MODES[mode].cheese.rows }, next));
    const over = s.sent.find((m) => m.t === 'over');
    expect(over).toMatchObject({ ranked: true, result: { finished: true, reason: 'goal' } });
    const game = s.game();
    expect(game.snapshot()).toMatchObject({ finished: true, reason: 'goal' });
    game.reveal(ticket.seed);
    expect(game.hash()).toBe(played.result.hash);
    host.close();
  });

  it('a client that stops playing learns no hole past the start: the field’s rows and two more', async () => {
    const owner = await player('idle-digger');
    const ticket = await issueTicket({ live: true, mode: 'dig100', owner });
    const s = spy('dig100');
    const idle = { ...botGame('dig100', ticket.seed).replay, nextCount: 5 };
    // The first 300 ticks without a key: the pieces fall and stack, no garbage row is cleared.
    idle.events = [];
    const host = await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: { ...idle, events: [{ tick: 299, key: 'left', down: true }] }, onMessage: s.onMessage }).catch(() => null);
    expect(s.known.size).toBe(10 + HOLES_AHEAD);
    host?.close();
  });

  it('a spectator who joins mid-game is dealt the holes too, and draws the player’s field to the end', async () => {
    const owner = await player('watched-digger');
    const ticket = await issueTicket({ live: true, mode: 'dig18', owner });
    const { replay, result } = botGame('dig18', ticket.seed);
    replay.nextCount = 5;
    let now = 0;
    const bus = createLocalBus();
    const host = new GameHost({
      gameId: ticket.gameId, seed: ticket.seed, mode: 'dig18', rulesVersion: replay.rulesVersion, handling: replay.handling, nextCount: 5,
      owner, player: { name: 'watched', guest: false }, bus, now: () => now, finalizeAfterMs: null, onClose: () => {},
    });
    host.attach({ send: () => {} });
    let feed: SpectatorFeed | null = null;
    const joinAt = Math.floor(result.ticks / 3);
    for (let tick = 0, seq = 1; tick < result.ticks; seq++) {
      const upTo = Math.min(result.ticks, tick + 6);
      now = (upTo * 1000) / 60;
      if (!feed && tick >= joinAt) {
        const w = serverMessageSchema.parse(JSON.parse(JSON.stringify(host.watching())));
        if (w.t !== 'watching') throw new Error('no catch-up');
        feed = new SpectatorFeed(w);
        const f = feed;
        bus.subscribe(ticket.gameId, (m) => void (m.t === 'frame' && f.push(serverMessageSchema.parse(JSON.parse(JSON.stringify(m))) as Extract<ServerMessage, { t: 'frame' }>)));
      }
      expect(host.inputs(seq, upTo, replay.events.filter((e) => e.tick >= tick && e.tick < upTo).map(toWireEvent))).toBeNull();
      tick = upTo;
    }
    feed!.runTo(Number.MAX_SAFE_INTEGER);
    const end = createGame(replayConfig(replay));
    for (let t = 0; t < result.ticks; t++) end.tick(replay.events.filter((e) => e.tick === t));
    expect(feed!.snapshot()).toMatchObject({ board: end.snapshot().board, progress: 18, finished: true, reason: 'goal' });
    await host.recorded;
    host.close();
  });

  it('a live Dig 10 submitted after its stream is on the board, ranked by its time', async () => {
    const owner = await player('board-digger');
    const { outcome, played } = await playAndSubmit({ owner, mode: 'dig10' });
    expect(outcome).toMatchObject({ ok: true });
    const db = await getDb();
    const best = await db.personalBest.findFirst({ where: { userId: owner.userId!, mode: 'dig10', period: 'all' }, select: { metric: true } });
    expect(best?.metric).toBe(played.result.ticks);
  });
});
