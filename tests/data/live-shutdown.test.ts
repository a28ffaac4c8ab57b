import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { issueTicket } from '@/lib/server/games/tickets';
import { resetDb } from '@/tests/data/db';
import { lostAt } from '@/tests/data/live-site';
import { player, streamLive } from '@/tests/data/play';
import { botGame } from '@/tests/support/replays';

beforeEach(resetDb);

const checkpointOf = async (gameId: string) =>
  (await getDb()).gameTicket.findUniqueOrThrow({ where: { id: gameId }, select: { liveAckTick: true, liveAckInputs: true, livePauses: true } });

// A graceful shutdown (SIGTERM: lib/server/live/hub.ts drain) before the process exits.
describe('a live game host shut down with its process', () => {
  it('writes the last acknowledged tick on the ticket, however recent the last checkpoint, and carries it', async () => {
    const g = await lostAt(300, { pauses: 1 });
    // On to half a second past a checkpoint: the next may not come for 1.5 s more.
    let written = g.checkpointTick;
    let tick = 300;
    for (; tick < 900; ) {
      await g.playOn((tick += 6));
      const now = (await checkpointOf(g.ticket.gameId)).liveAckTick!;
      if (now !== written && now === tick) break;
      written = now;
    }
    await g.playOn((tick += 30));
    const before = await checkpointOf(g.ticket.gameId);
    expect(before.liveAckTick).toBe(tick - 30);

    const carried = await g.lost.shutDown();
    const after = await checkpointOf(g.ticket.gameId);
    expect(after.liveAckTick).toBe(tick);
    expect(after.liveAckInputs).toBe(g.replay.events.filter((e) => e.tick < tick).length);
    expect(after.livePauses).toBe(1);
    expect(carried).toMatchObject({ pauses: 1, unranked: null, ack: { tick, inputs: after.liveAckInputs } });
  });

  it('stores a game whose stream ended at once, instead of waiting for a POST that may never come', async () => {
    const owner = await player('closer');
    // Issued five minutes ago: the stream is stored as of now, and a bot's Sprint is shorter.
    const ticket = await issueTicket({ mode: 'sprint', owner, now: new Date(Date.now() - 5 * 60_000), live: true });
    const played = botGame('sprint', ticket.seed);
    played.replay.nextCount = 5;
    const host = await streamLive({ gameId: ticket.gameId, seed: ticket.seed, owner, replay: played.replay, finalizeAfterMs: 600_000 });
    const db = await getDb();
    expect(await db.game.count({ where: { ticketId: ticket.gameId } })).toBe(0);
    expect(await host.shutDown()).toBeNull();
    expect(await db.game.findMany({ where: { ticketId: ticket.gameId }, select: { reviewReason: true } })).toEqual([{ reviewReason: null }]);
  });
});
