import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/server/db';
import { issueTicket } from '@/lib/server/games/tickets';
import { giveUpLiveGame, writeAckCheckpoint } from '@/lib/server/live/solo/gathered-writes';
import { saveAckCheckpoints } from '@/lib/server/live/solo/checkpoints';
import { resetDb } from '@/tests/data/db';
import { player, T0 } from '@/tests/data/play';

beforeEach(resetDb);

const row = (gameId: string, tick: number, unranked: 'pause_budget' | null = null) =>
  ({ gameId, checkpoint: { tick, inputs: tick / 10, digest: `d${tick}` }, pauses: tick / 100, unranked, awayMs: tick * 10, lagMs: tick * 2 });

async function checkpointOf(id: string) {
  const db = await getDb();
  return db.gameTicket.findUnique({ where: { id }, select: { liveAckTick: true, liveAckInputs: true, liveAckDigest: true, livePauses: true, liveAwayMs: true, liveLagMs: true, liveUnranked: true } });
}

describe('live checkpoints, written together', () => {
  it('writes every game of a batch in one statement, and never winds one back', async () => {
    const owner = await player('checkpointer');
    const [a, b] = [await issueTicket({ mode: 'sprint', owner, now: T0, live: true }), await issueTicket({ mode: 'marathon', owner, now: T0, live: true })];
    await saveAckCheckpoints([row(a.gameId, 600), row(b.gameId, 300, 'pause_budget')]);
    expect(await checkpointOf(a.gameId)).toEqual({ liveAckTick: 600, liveAckInputs: 60, liveAckDigest: 'd600', livePauses: 6, liveAwayMs: 6000, liveLagMs: 1200, liveUnranked: null });
    expect(await checkpointOf(b.gameId)).toEqual({ liveAckTick: 300, liveAckInputs: 30, liveAckDigest: 'd300', livePauses: 3, liveAwayMs: 3000, liveLagMs: 600, liveUnranked: 'pause_budget' });
    // A late write of an older state (a host that handed the game over) changes nothing; a lost
    // rank stays lost; the other row of the same statement still moves on.
    await saveAckCheckpoints([row(a.gameId, 500), row(b.gameId, 900)]);
    expect(await checkpointOf(a.gameId)).toMatchObject({ liveAckTick: 600, liveAckDigest: 'd600', liveLagMs: 1200 });
    expect(await checkpointOf(b.gameId)).toMatchObject({ liveAckTick: 900, liveUnranked: 'pause_budget', liveLagMs: 1800 });
    // The lag is the latest checkpoint's, not the most it ever was: a game that caught up is not held to an old lag.
    await saveAckCheckpoints([{ ...row(b.gameId, 900), lagMs: 40 }]);
    expect(await checkpointOf(b.gameId)).toMatchObject({ liveAckTick: 900, liveLagMs: 40 });
  });

  it('gathers the games that ask within a moment, and settles each once its row is written', async () => {
    const owner = await player('gatherer');
    const tickets = await Promise.all([1, 2, 3].map(() => issueTicket({ mode: 'sprint', owner, now: T0, live: true })));
    await Promise.all(tickets.map((t, i) => writeAckCheckpoint(row(t.gameId, 100 * (i + 1)))));
    for (const [i, t] of tickets.entries()) expect(await checkpointOf(t.gameId)).toMatchObject({ liveAckTick: 100 * (i + 1) });
  });

  it('keeps the later of two asks for one game in a window, and settles both', async () => {
    const owner = await player('twice');
    const t = await issueTicket({ mode: 'sprint', owner, now: T0, live: true });
    await Promise.all([writeAckCheckpoint(row(t.gameId, 700)), writeAckCheckpoint(row(t.gameId, 400))]);
    expect(await checkpointOf(t.gameId)).toMatchObject({ liveAckTick: 700, liveAckDigest: 'd700' });
  });

  it('writes more games than one statement can take (65,535 parameters), in several', async () => {
    const owner = await player('crowd');
    const [a, b] = (await Promise.all([1, 2].map(() => issueTicket({ mode: 'sprint', owner, now: T0, live: true })))).sort((x, y) => (x.gameId < y.gameId ? -1 : 1));
    // Rows of no ticket (they change nothing) around the two real ones: 1,999 that sort before
    // them, so the first real row ends one statement and the second begins the next, and enough
    // after them that the whole would take over 65,535 parameters (9 a row) in one statement.
    const before = Array.from({ length: 1_999 }, (_, i) => row(`!${String(i).padStart(4, '0')}`, 100));
    const after = Array.from({ length: 6_201 }, (_, i) => row(`${b!.gameId}~${String(i).padStart(4, '0')}`, 100));
    await saveAckCheckpoints([...after, row(b!.gameId, 900), ...before, row(a!.gameId, 800)]);
    expect(await checkpointOf(a!.gameId)).toMatchObject({ liveAckTick: 800 });
    expect(await checkpointOf(b!.gameId)).toMatchObject({ liveAckTick: 900 });
  });
});

describe('live games given up, marked together', () => {
  it('marks every game given up within a moment, once, and settles each', async () => {
    const owner = await player('leavers');
    const tickets = await Promise.all([1, 2, 3].map(() => issueTicket({ mode: 'sprint', owner, now: T0, live: true })));
    await Promise.all([...tickets.map((t) => giveUpLiveGame(t.gameId)), giveUpLiveGame(tickets[0]!.gameId)]);
    const db = await getDb();
    const rows = await db.gameTicket.findMany({ where: { id: { in: tickets.map((t) => t.gameId) } }, select: { liveGivenUpAt: true } });
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.liveGivenUpAt instanceof Date)).toBe(true);
  });
});
