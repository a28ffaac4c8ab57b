import { beforeEach, describe, expect, it } from 'vitest';
import { createDealtGame, HOLES_AHEAD, holeSequence, metricOf, type DealtGame } from '@/lib/engine';
import { fromWireEvent, serverMessageSchema, type ServerMessage } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import { issueTicket } from '@/lib/server/games/tickets';
import { playAndSubmit, player, streamLive } from '@/tests/data/play';
import { resetDb } from '@/tests/data/db';
import { playGame } from '@/tests/support/bot';
import { FAST_HUMAN } from '@/tests/support/human';

beforeEach(resetDb);

/** Fifty pieces at a person's pace, then nothing: the rows rising on the clock top the stack out. */
const survive = (_mode: unknown, seed: string) => {
  const { replay, result } = playGame({ mode: 'survival', seed, human: FAST_HUMAN, maxPieces: 50 });
  return { replay, result };
};

/**
 * Survival's rows rise on the clock, each with a hole column the host deals as it deals pieces:
 * a modified client must learn no row more than HOLES_AHEAD past the rows its field has risen,
 * however long it plays, and a row due before its column arrives waits (lib/engine/deal.ts).
 */
describe('live Survival: hole columns are dealt as the clock raises rows, never further ahead', () => {
  it('the browser never knows more than two rows past its field, and what it knows is the seed’s', async () => {
    const owner = await player('survivor');
    const ticket = await issueTicket({ live: true, mode: 'survival', owner });
    const played = survive('survival', ticket.seed);
    played.replay.nextCount = 5;
    const known = new Map<number, number>();
    const sent: ServerMessage[] = [];
    let game: DealtGame | null = null;
    let furthest = -Infinity;
    const ticks = new Map<number, ReturnType<typeof fromWireEvent>[]>();
    for (const e of played.replay.events) ticks.set(e.tick, [...(ticks.get(e.tick) ?? []), e]);
    const onMessage = (raw: ServerMessage) => {
      const m = serverMessageSchema.parse(JSON.parse(JSON.stringify(raw)));
      sent.push(m);
      const learn = (from: number, columns: readonly number[]) => columns.forEach((c, i) => known.set(from + i, c));
      if (m.t === 'started') {
        learn(0, m.holes ?? []);
        game = createDealtGame({ mode: 'survival', handling: m.handling, nextCount: m.nextCount, rulesVersion: m.rulesVersion, holes: m.holes }, m.pieces);
      }
      if (m.t === 'deal' && game) {
        if (m.holes) learn(m.holes.from, m.holes.columns);
        game.deal(m.from, m.pieces);
        if (m.holes) game.dealHoles(m.holes.from, m.holes.columns);
      }
      // The browser's game follows the stream tick by tick, so the spy knows the rows risen in its field.
      // A batch's deal comes before its ack, and the browser had played the batch when it sent it:
      // what it knows is measured against its field at the batch's end, the ack's tick.
      if (m.t === 'ack' && game) {
        while (game.tickNo < m.tick && !game.over && game.ready) game.tick(ticks.get(game.tickNo)?.map(({ key, down }) => ({ key, down })));
        furthest = Math.max(furthest, known.size - game.holesRisen);
      }
    };
    const host = await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay, onMessage });
    const started = sent.find((m) => m.t === 'started');
    expect(started?.t === 'started' && started.holes).toHaveLength(HOLES_AHEAD);
    expect(furthest).toBeLessThanOrEqual(HOLES_AHEAD);
    const g = game as DealtGame | null;
    if (!g) throw new Error('no start');
    expect(g.holesRisen).toBeGreaterThan(5);
    const next = holeSequence(ticket.seed, 'survival');
    expect([...known.keys()]).toEqual([...Array(known.size).keys()]);
    expect([...known.values()]).toEqual(Array.from({ length: known.size }, next));
    expect(known.size).toBeLessThanOrEqual(g.holesRisen + HOLES_AHEAD);
    expect(sent.find((m) => m.t === 'over')).toMatchObject({ ranked: true, result: { finished: false, toppedOut: true } });
    g.reveal(ticket.seed);
    expect(g.hash()).toBe(played.result.hash);
    host.close();
  });

  it('a live Survival submitted after its stream is on the board, ranked by time survived: longer is better', async () => {
    const owner = await player('board-survivor');
    const { outcome, played } = await playAndSubmit({ owner, mode: 'survival', play: survive });
    expect(outcome).toMatchObject({ ok: true });
    const db = await getDb();
    const best = await db.personalBest.findFirst({ where: { userId: owner.userId!, mode: 'survival', period: 'all' }, select: { metric: true } });
    expect(best?.metric).toBe(-played.result.ticks);
    expect(best?.metric).toBe(metricOf('survival', played.result));
  });
});
