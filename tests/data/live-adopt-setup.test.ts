import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, encodeReplay, simulateReplay, type Handling } from '@/lib/engine';
import type { ClientMessage } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import { submitReplay } from '@/lib/server/games/submit';
import { dispatch } from '@/lib/server/live/messages';
import { resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { resetDb } from '@/tests/data/db';
import { liveSite, lostAt, wire } from '@/tests/data/live-site';
import { player } from '@/tests/data/play';
import { claimOf } from '@/tests/support/replays';

// A game taken up after its host was lost plays under the handling and preview it was started
// with, recorded on its ticket at `start`, not under whatever the resuming browser declares.
beforeEach(resetDb);

type Lost = Awaited<ReturnType<typeof lostAt>>;
const resumeOf = (g: Lost, setup: { handling: Handling; nextCount: number }): ClientMessage => ({
  t: 'resume', of: { kind: 'game', id: g.ticket.gameId }, token: resumeTokenOf(g.ticket.gameId), setup: { ...setup, tick: 600 },
});

describe('the setup of a live game', () => {
  it('is recorded on its ticket at start', async () => {
    const site = liveSite(await player('starter'));
    const handling: Handling = { das: 7, arr: 0, sdf: 'instant', dasCut: true };
    await dispatch(site.hub, site.conn, { t: 'start', mode: 'sprint', handling, nextCount: 3 });
    const started = site.sent.find((m) => m.t === 'started');
    if (started?.t !== 'started') throw new Error('no game started');
    const ticket = await (await getDb()).gameTicket.findUniqueOrThrow({ where: { id: started.gameId }, select: { liveSetup: true } });
    expect(ticket.liveSetup).toEqual({ handling, nextCount: 3 });
    site.hosts.get(started.gameId)?.close('hand_over');
  });

  it.each([
    ['another handling', { handling: { ...DEFAULT_HANDLING, das: 4 }, nextCount: 5 }],
    ['another preview', { handling: DEFAULT_HANDLING, nextCount: 2 }],
  ])('refuses a resume that declares %s (setup_mismatch): nothing is taken up or dealt', async (_, setup) => {
    const g = await lostAt(600);
    const site = liveSite(g.owner);
    await dispatch(site.hub, site.conn, resumeOf(g, setup));
    expect(site.sent.at(-1)).toMatchObject({ t: 'error', code: 'setup_mismatch', gameId: g.ticket.gameId });
    expect(site.sent.some((m) => m.t === 'resumed')).toBe(false);
    expect(site.hosts.size).toBe(0);
    expect(site.hub.gamesByAddress.count(site.conn.address)).toBe(0);
  });

  it('refused after a hand-over, lets the lease go with the carry it took: a take-up failed on purpose does not start the next afresh', async () => {
    const g = await lostAt(600);
    const carried = { pauses: 1, unranked: null, awayMs: 4_000, lagMs: 2_000 };
    const site = liveSite(g.owner, carried);
    await dispatch(site.hub, site.conn, resumeOf(g, { handling: { ...DEFAULT_HANDLING, das: 4 }, nextCount: 5 }));
    expect(site.sent.at(-1)).toMatchObject({ t: 'error', code: 'setup_mismatch' });
    expect(site.lease.released).toEqual([carried]);
  });

  it('takes the game up under the recorded setup, and the stream verifies under it', async () => {
    const g = await lostAt(600);
    const site = liveSite(g.owner);
    await dispatch(site.hub, site.conn, resumeOf(g, { handling: DEFAULT_HANDLING, nextCount: 2 }));
    await dispatch(site.hub, site.conn, resumeOf(g, { handling: g.replay.handling, nextCount: 5 }));
    expect(site.sent.at(-1)).toMatchObject({ t: 'resumed', gameId: g.ticket.gameId });
    const host = site.hosts.get(g.ticket.gameId)!;
    // The whole log at once: the ticket was issued 25 s ago, so the game's ~22 s fit the wall clock.
    const end = simulateReplay(g.replay).ticks;
    expect(host.inputs(1, 600, wire(g.replay.events, 0, 600))).toBeNull();
    for (let tick = 600, seq = 2; tick < end; seq++, tick += 600) expect(host.inputs(seq, Math.min(end, tick + 600), wire(g.replay.events, tick, tick + 600))).toBeNull();
    await host.recorded;
    expect(site.sent.find((m) => m.t === 'over')).toMatchObject({ ranked: true });
    const outcome = await submitReplay({
      gameId: g.ticket.gameId, owner: g.owner, submission: { replay: encodeReplay(g.replay), claimed: claimOf(simulateReplay(g.replay)) }, now: new Date(),
    });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    host.close();
  });

  it('a ticket issued before setups were recorded is taken up with the declared one, as before', async () => {
    const g = await lostAt(600, { recordSetup: false });
    const site = liveSite(g.owner);
    await dispatch(site.hub, site.conn, resumeOf(g, { handling: g.replay.handling, nextCount: 5 }));
    expect(site.sent.at(-1)).toMatchObject({ t: 'resumed', gameId: g.ticket.gameId });
    site.hosts.get(g.ticket.gameId)?.close('hand_over');
  });
});
