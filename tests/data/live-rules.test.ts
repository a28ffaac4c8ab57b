import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import { issueTicket } from '@/lib/server/games/tickets';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import { GameHost } from '@/lib/server/live/solo/game-host';
import { resetDb } from '@/tests/data/db';
import { player } from '@/tests/data/play';

beforeEach(resetDb);

/** A live game host plays its ticket's rules: the key rules 1 lacks is a bad batch there, an input under rules 3. */
describe('live game host and rules versions', () => {
  async function host(rulesVersion: number) {
    const owner = await player(`rules${rulesVersion}`);
    const ticket = await issueTicket({ live: true, mode: 'sprint', owner });
    const sent: ServerMessage[] = [];
    const h = new GameHost({
      gameId: ticket.gameId, seed: ticket.seed, mode: 'sprint', rulesVersion, handling: { ...DEFAULT_HANDLING }, nextCount: 5,
      owner, player: { name: 'rules', guest: false }, bus: createLocalBus(), now: () => 1000, finalizeAfterMs: null, onClose: () => {},
    });
    h.attach({ send: (m) => sent.push(m) });
    return { h, started: sent.find((m) => m.t === 'started') };
  }

  it('announces the rules it enforces, and refuses rowDown under rules 1 with the reason', async () => {
    const old = await host(1);
    expect(old.started).toMatchObject({ rulesVersion: 1 });
    expect(old.h.inputs(1, 3, [[0, 8, 1]])).toEqual({ code: 'bad_inputs', message: "event 0: key 'rowDown' is not played under rules version 1" });
    old.h.close();
    const now = await host(3);
    expect(now.started).toMatchObject({ rulesVersion: 3 });
    expect(now.h.inputs(1, 3, [[0, 8, 1], [1, 8, 0]])).toBeNull();
    now.h.close();
  });
});
