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

type Lost = Awaited<ReturnType<typeof lostAt>>;

/** Plays on until a checkpoint is written at the tick just played (one comes every 2 s of play); that tick. */
async function atFreshCheckpoint(g: Lost, from: number): Promise<number> {
  let written = g.checkpointTick;
  for (let tick = from; tick < from + 600; ) {
    await g.playOn((tick += 6));
    const now = (await checkpointOf(g.ticket.gameId)).liveAckTick!;
    if (now !== written && now === tick) return tick;
    written = now;
  }
  throw new Error('no checkpoint in 10 s of play');
}

// A graceful shutdown (SIGTERM: lib/server/live/hub.ts drain) before the process exits.
describe('a live game host shut down with its process', () => {
  it('writes the last acknowledged tick on the ticket, however recent the last checkpoint, and carries it', async () => {
    const g = await lostAt(300, { pauses: 1 });
    // On to half a second past a checkpoint: the next may not come for 1.5 s more.
    let tick = await atFreshCheckpoint(g, 300);
    await g.playOn((tick += 30));
    const before = await checkpointOf(g.ticket.gameId);
    expect(before.liveAckTick).toBe(tick - 30);

    const carried = await g.lost.shutDown();
    const after = await checkpointOf(g.ticket.gameId);
    expect(after.liveAckTick).toBe(tick);
    expect(after.liveAckInputs).toBe(g.replay.events.filter((e) => e.tick < tick).length);
    expect(after.livePauses).toBe(1);
    // A Sprint allows no pause: the one taken cost its rank, which goes with the game.
    expect(carried).toMatchObject({ pauses: 1, unranked: 'paused', ack: { tick, inputs: after.liveAckInputs } });
  });

  it('refuses inputs and pauses from the moment it starts: what is written is what is carried', async () => {
    const g = await lostAt(300);
    const shutting = g.lost.shutDown();
    expect(g.lost.inputs(51, 306, [])).toMatchObject({ code: 'server_error' });
    expect(g.lost.pause()).toMatchObject({ code: 'server_error' });
    const carried = await shutting;
    expect(carried).toMatchObject({ pauses: 0, ack: { tick: 300 } });
    expect(await checkpointOf(g.ticket.gameId)).toMatchObject({ liveAckTick: 300, livePauses: 0 });
  });

  it('writes a pause taken since the last checkpoint at the same tick', async () => {
    const g = await lostAt(300);
    const tick = await atFreshCheckpoint(g, 300);
    expect(g.lost.pause()).toBeNull();
    expect(await g.lost.shutDown()).toMatchObject({ pauses: 1, ack: { tick } });
    expect(await checkpointOf(g.ticket.gameId)).toMatchObject({ liveAckTick: tick, livePauses: 1 });
  });

  it('writes a refusal that is under way before it lets the process exit', async () => {
    const g = await lostAt(300);
    // Ten seconds of play in no time at all: refused, and the refusal is being written.
    expect(g.lost.inputs(51, 900, [])).toMatchObject({ code: 'ahead_of_clock' });
    expect(await g.lost.shutDown()).toBeNull();
    const db = await getDb();
    expect(await db.rejectedSubmission.count({ where: { ticketId: g.ticket.gameId, code: 'ahead_of_clock' } })).toBe(1);
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
