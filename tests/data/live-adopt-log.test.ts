import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReplayEvent } from '@/lib/engine';
import { PAUSE_BUDGETS } from '@/lib/live/pauses';
import { getDb } from '@/lib/server/db';
import { adoptLiveGame } from '@/lib/server/live/solo/adopt';
import { GameHost } from '@/lib/server/live/solo/game-host';
import { PACING } from '@/lib/server/live/pacing';
import type { Carried } from '@/lib/server/live/cluster/lease';
import { resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { resetDb } from '@/tests/data/db';
import { liveSite, lostAt, wire } from '@/tests/data/live-site';

beforeEach(resetDb);

/** The log with the first input at or after `from` (and before `to`) moved one tick later: a different game. */
function altered(events: readonly ReplayEvent[], from: number, to: number): ReplayEvent[] {
  const out = events.map((e) => ({ ...e }));
  const i = out.findIndex((e, j) => e.tick >= from && e.tick + 1 < to && (out[j + 1]?.tick ?? Infinity) > e.tick + 1);
  if (i < 0) throw new Error(`no input to move between ticks ${from} and ${to}`);
  out[i]!.tick++;
  return out;
}

type Lost = Awaited<ReturnType<typeof lostAt>>;

function adopt(g: Lost, carried: Carried | null = null) {
  const site = liveSite(g.owner, carried);
  const adopting = adoptLiveGame(site.hub, site.conn, { gameId: g.ticket.gameId, token: resumeTokenOf(g.ticket.gameId), setup: { handling: g.replay.handling, nextCount: 5, tick: 600 } });
  return { site, host: adopting.then((h) => (h instanceof GameHost ? h : null)) };
}

/** Takes the game up as a restarted server would and feeds it `events` up to tick 600 in one batch. */
async function resend(g: Lost, events: readonly ReplayEvent[], carried: Carried | null = null) {
  const { site, host: adopting } = adopt(g, carried);
  const host = await adopting;
  if (!host) throw new Error('not adopted');
  const closed = site.nextRemoval();
  const fail = host.inputs(1, 600, wire(events, 0, 600));
  return { fail, site, host, closed };
}

describe('a live game taken up from its ticket checks the resent log against what was acknowledged', () => {
  it('writes checkpoints on the ticket while pieces are dealt, at most one every two seconds', async () => {
    const g = await lostAt(600);
    // Ten seconds at pace: the last checkpoint is within two seconds of the end, and covers real input.
    expect(g.checkpointTick).toBeGreaterThan(600 - 120 - 6);
    expect(g.checkpointInputs).toBeGreaterThan(0);
  });

  it('takes up the same log, and carries on checkpointing from there', async () => {
    const g = await lostAt(600);
    const r = await resend(g, g.replay.events);
    expect(r.fail).toBeNull();
    expect(r.site.sent.some((m) => m.t === 'ack' && m.tick === 600)).toBe(true);
    r.host.close();
    await r.closed;
  });

  it('refuses a log changed before the checkpoint: the ticket is spent and the refusal recorded', async () => {
    const g = await lostAt(600);
    const r = await resend(g, altered(g.replay.events, 0, g.checkpointTick));
    expect(r.fail).toMatchObject({ code: 'resume_failed' });
    // Nothing of the replaced log was acknowledged or dealt.
    expect(r.site.sent.some((m) => m.t === 'ack' || m.t === 'deal')).toBe(false);
    await r.closed;
    const db = await getDb();
    expect(await db.gameTicket.findUnique({ where: { id: g.ticket.gameId }, select: { usedAt: true } })).toMatchObject({ usedAt: expect.any(Date) });
    expect(await db.rejectedSubmission.count({ where: { ticketId: g.ticket.gameId, code: 'resume_mismatch' } })).toBe(1);
  });

  it('refuses a log cut short of the checkpoint', async () => {
    const g = await lostAt(600);
    const r = await resend(g, g.replay.events.filter((e) => e.tick < g.checkpointTick - 30));
    expect(r.fail).toMatchObject({ code: 'resume_failed' });
    await r.closed;
  });

  it('accepts a change after the last checkpoint: the window docs/decisions/0010 describes', async () => {
    const g = await lostAt(600);
    const r = await resend(g, altered(g.replay.events, g.checkpointTick, 600));
    expect(r.fail).toBeNull();
    r.host.close();
    await r.closed;
  });

  it('checks against what a handover carried when it is later than the ticket', async () => {
    const g = await lostAt(600);
    const carried = g.lost.carried();
    expect(carried.ack?.tick).toBe(600);
    const r = await resend(g, altered(g.replay.events, g.checkpointTick, 600), carried);
    expect(r.fail).toMatchObject({ code: 'resume_failed' });
    await r.closed;
  });
});

/**
 * The time away a freshly taken-up host carries beyond what it was taken up with: its catch-up,
 * under way since the take-up (a few ms here), counts as time away (game-host.ts awayCounted).
 */
function awaySinceTakeUp(host: GameHost, before: number): number {
  const away = host.carried().awayMs ?? 0;
  expect(away).toBeGreaterThanOrEqual(before);
  return away - before;
}

describe('a live game taken up after a crash keeps its pause count and lost rank', () => {
  it('counts on from the pauses of the last checkpoint, with the rank lost to them', async () => {
    // A Sprint allows no pause (lib/live/pauses.ts): one cost its rank.
    const g = await lostAt(600, { pauses: PAUSE_BUDGETS.sprint.pauses + 1 });
    const host = await adopt(g).host;
    expect(host?.carried()).toMatchObject({ pauses: PAUSE_BUDGETS.sprint.pauses + 1, unranked: 'paused' });
    host!.close();
  });

  it('starts from none when none were taken', async () => {
    const g = await lostAt(600);
    const host = (await adopt(g).host)!;
    expect(host.carried()).toMatchObject({ pauses: 0, unranked: null });
    expect(awaySinceTakeUp(host, 0)).toBeLessThan(1_000);
    host.close();
  });

  it('counts on from the time away of the last checkpoint: more away after the restart loses the rank', async () => {
    const before = PACING.maxAwayMs * 0.75;
    const g = await lostAt(600, { awayMs: before });
    const { site, host: adopting } = adopt(g);
    const host = (await adopting)!;
    expect(host.carried()).toMatchObject({ unranked: null });
    expect(awaySinceTakeUp(host, before)).toBeLessThan(1_000);
    // Away again, a third of the allowance: over it in all, though not in this host's own count.
    const at = performance.now();
    vi.spyOn(performance, 'now').mockReturnValue(at);
    host.detach(site.conn);
    vi.spyOn(performance, 'now').mockReturnValue(at + PACING.maxAwayMs / 3);
    expect(host.resume(site.conn, resumeTokenOf(g.ticket.gameId))).toBe(true);
    vi.restoreAllMocks();
    expect(host.carried()).toMatchObject({ unranked: 'disconnected' });
    host.close();
  });
});

describe('a live game its host closed before the end', () => {
  it('is given up on its ticket and cannot be taken up again', async () => {
    const g = await lostAt(600);
    g.lost.close(); // the resume window ran out, or the player started another game
    await g.closed;
    const db = await getDb();
    expect(await db.gameTicket.findUnique({ where: { id: g.ticket.gameId }, select: { liveGivenUpAt: true } })).toMatchObject({ liveGivenUpAt: expect.any(Date) });
    expect(await adopt(g).host).toBeNull();
  });

  it('is given up once the database is back, when it was away at the close', async () => {
    const g = await lostAt(600);
    // The switch the fault-injection signal turns (lib/server/db.ts): every query fails meanwhile.
    const faults = globalThis as { __linefallDbDown?: boolean };
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      faults.__linefallDbDown = true;
      g.lost.close();
      // Away for 400 ms: the give-up is written after its 100 ms gathering window, so it and its
      // first retry 250 ms later both meet the database away.
      await new Promise((r) => setTimeout(r, 400));
      faults.__linefallDbDown = false;
      await g.closed;
    } finally {
      faults.__linefallDbDown = false;
      quiet.mockRestore();
    }
    const db = await getDb();
    expect(await db.gameTicket.findUnique({ where: { id: g.ticket.gameId }, select: { liveGivenUpAt: true } })).toMatchObject({ liveGivenUpAt: expect.any(Date) });
    expect(await adopt(g).host).toBeNull();
  });

  it('stays adoptable when it was handed over to another instance', async () => {
    const g = await lostAt(600);
    g.lost.close('hand_over');
    await g.closed;
    const { site, host: adopting } = adopt(g, g.lost.carried());
    const host = await adopting;
    expect(host).not.toBeNull();
    const removed = site.nextRemoval();
    host?.close();
    await removed;
  });
});
