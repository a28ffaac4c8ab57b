import { beforeEach, describe, expect, it } from 'vitest';
import { decodeReplay, finesseOfReplay } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { getBoard } from '@/lib/server/games/boards';
import { finesseFaultsOf } from '@/lib/server/games/finesse';
import { resetDb } from '@/tests/data/db';
import { playAndSubmit, player } from '@/tests/data/play';

beforeEach(resetDb);

const faultsOf = async (gameId: string) => (await (await getDb()).game.findUniqueOrThrow({ where: { id: gameId }, select: { finesseFaults: true, replay: true } }));

describe('finesse faults of a stored game', () => {
  it('are counted by the server from the verified replay, stored on the row, and shown on the board', async () => {
    const alice = await player('alice');
    const { ticket, outcome } = await playAndSubmit({ owner: alice });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    const row = await faultsOf(ticket.gameId);
    const expected = finesseOfReplay(decodeReplay(row.replay)).faults;
    expect(expected).toBeGreaterThan(0);
    expect(row.finesseFaults).toBe(expected);
    const board = await getBoard({ mode: 'sprint', period: 'all', limit: 10 });
    expect(board.rows[0]).toMatchObject({ gameId: ticket.gameId, finesseFaults: expected });
  });

  it('a game stored without a count (before the column, or by an older instance mid-deploy) reads none on the board', async () => {
    const bob = await player('bob');
    const { ticket } = await playAndSubmit({ owner: bob });
    const db = await getDb();
    await db.game.update({ where: { id: ticket.gameId }, data: { finesseFaults: null } });
    expect((await getBoard({ mode: 'sprint', period: 'all', limit: 10 })).rows[0]).toMatchObject({ gameId: ticket.gameId, finesseFaults: null });
  });

  it('a replay that cannot be counted gives no count rather than failing the store', () => {
    expect(finesseFaultsOf('not-a-replay')).toBeNull();
  });
});
