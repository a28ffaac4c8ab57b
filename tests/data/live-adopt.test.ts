import { beforeEach, describe, expect, it } from 'vitest';
import { encodeReplay, simulateReplay, type Replay } from '@/lib/engine';
import { toWireEvent, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';
import { getDb } from '@/lib/server/db';
import { submitReplay } from '@/lib/server/games/submit';
import { issueTicket } from '@/lib/server/games/tickets';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import type { Carried } from '@/lib/server/live/cluster/lease';
import { InputDigest, type AckCheckpoint } from '@/lib/server/live/solo/ack-digest';
import { mayBeTakenUp } from '@/lib/server/live/solo/adopt';
import { GameHost } from '@/lib/server/live/solo/game-host';
import { dispatch } from '@/lib/server/live/messages';
import { PACING } from '@/lib/server/live/pacing';
import { resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { resetDb } from '@/tests/data/db';
import { liveSite, lostAt, wire } from '@/tests/data/live-site';
import { player } from '@/tests/data/play';
import { botGame, claimOf } from '@/tests/support/replays';

beforeEach(resetDb);
type Lost = Awaited<ReturnType<typeof lostAt>>;

const msAt = (tick: number) => (tick * 1000) / 60;

/** What a lost host had acknowledged of `replay`, up to `tick`, as its checkpoint says. */
function checkpointAt(replay: Replay, tick: number): AckCheckpoint {
  const before = replay.events.filter((e) => e.tick < tick);
  const d = new InputDigest();
  d.add(before);
  return { tick, inputs: before.length, digest: d.digest() };
}

/**
 * A game taken up after its host was lost (the server restarted): a host built from the ticket
 * with the clock running from the ticket's issue, fed the browser's whole log at once, then the
 * rest at pace. The ticket is issued `elapsedAtAdoptMs` before the host is built.
 */
async function adopted(options: { catchUpTo: number; elapsedAtAdoptMs: number; lagAfterMs?: number; splitAt?: number; splitTakesMs?: number; carried?: Carried; name?: string; declared?: number; acked?: number; heldTicks?: number; parts?: { count: number; everyMs: number }; dropAfterSplitMs?: number }) {
  const owner = await player(options.name ?? 'survivor');
  const issuedAt = new Date(Date.now() - options.elapsedAtAdoptMs);
  const ticket = await issueTicket({ live: true, mode: 'sprint', owner, now: issuedAt });
  const played = botGame('sprint', ticket.seed);
  const replay: Replay = { ...played.replay, nextCount: 5 };
  let now = 0;
  const sent: ServerMessage[] = [];
  // Settles when the host closes: a refusal is written in the background, and the next test's
  // reset must not meet it.
  let onClose = () => {};
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const host = new GameHost({
    gameId: ticket.gameId, seed: ticket.seed, mode: 'sprint', rulesVersion: ticket.rulesVersion, handling: replay.handling, nextCount: 5,
    owner, player: { name: 'survivor', guest: false }, bus: createLocalBus(), now: () => now, finalizeAfterMs: null, onClose,
    adopted: {
      issuedAtMs: issuedAt.getTime(), catchUpTo: options.declared ?? options.catchUpTo, ...(options.carried ? { carried: options.carried } : {}),
      ...(options.acked !== undefined ? { checkpoint: checkpointAt(replay, options.acked) } : {}),
    },
  });
  const seatOf = { send: (m: ServerMessage) => sent.push(m) };
  host.resume(seatOf, resumeTokenOf(ticket.gameId));
  const events = (from: number, to: number) => replay.events.filter((e) => e.tick >= from && e.tick < to).map(toWireEvent);
  const end = simulateReplay(replay).ticks;
  // The catch-up: everything up to where the browser was, in one batch (or two, `splitAt` apart
  // by `splitTakesMs`).
  let seq0 = 1;
  // Or in `parts.count` batches, `parts.everyMs` apart: a long log sent at the page's pace.
  const cuts = options.parts ? Array.from({ length: options.parts.count - 1 }, (_, i) => Math.round(((i + 1) * options.catchUpTo) / options.parts!.count)) : [];
  for (let i = 0; i < cuts.length; i++) {
    const part = host.inputs(seq0++, cuts[i]!, events(cuts[i - 1] ?? 0, cuts[i]!));
    if (part) throw new Error(`${part.code}: ${part.message}`);
    now += options.parts!.everyMs;
  }
  if (options.splitAt !== undefined) {
    const part = host.inputs(seq0++, options.splitAt, events(0, options.splitAt));
    if (part) throw new Error(`${part.code}: ${part.message}`);
    now = options.splitTakesMs ?? 0;
    // Dropped for `dropAfterSplitMs` there, and back on this host.
    if (options.dropAfterSplitMs !== undefined) {
      const seat = { send: (m: ServerMessage) => sent.push(m) };
      host.detach(seatOf);
      now += options.dropAfterSplitMs;
      if (!host.resume(seat, resumeTokenOf(ticket.gameId))) throw new Error('not resumed');
    }
  }
  const first = host.inputs(seq0, options.catchUpTo, events(options.splitAt ?? cuts.at(-1) ?? 0, options.catchUpTo));
  const base = now;
  if (first) return { first, sent, host, ticket, owner, replay, played, doneAt: new Date(), closed };
  // Play the browser had made past the declared tick and held back: sent at once, right after the catch-up.
  const held = options.catchUpTo + (options.heldTicks ?? 0);
  let seq1 = seq0 + 1;
  for (let tick = options.catchUpTo; tick < held; tick += 6, seq1++) {
    const fail = host.inputs(seq1, tick + 6, events(tick, tick + 6));
    if (fail) throw new Error(`${fail.code}: ${fail.message}`);
  }
  for (let tick = held, seq = seq1; tick < end; seq++) {
    const upTo = Math.min(end, tick + 6);
    now = base + msAt(upTo - held) + (options.lagAfterMs ?? 0) * (upTo / end);
    const fail = host.inputs(seq, upTo, events(tick, upTo));
    if (fail) throw new Error(`${fail.code}: ${fail.message}`);
    tick = upTo;
  }
  await host.recorded;
  return { first, sent, host, ticket, owner, replay, played, doneAt: new Date(issuedAt.getTime() + options.elapsedAtAdoptMs + now), closed };
}

describe('a live game taken up from its ticket after its host was lost', () => {
  it('excuses the time the server was away, keeps the rank, and the POST matches the stream', async () => {
    // The browser was at tick 600 (10 s) when the server came back 25 s after the deal.
    const r = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000 });
    expect(r.first).toBeNull();
    const over = r.sent.find((m) => m.t === 'over');
    expect(over).toMatchObject({ t: 'over', ranked: true, seed: r.ticket.seed });
    expect(r.sent.some((m) => m.t === 'status' && !m.ranked)).toBe(false);
    const outcome = await submitReplay({
      gameId: r.ticket.gameId, owner: r.owner, submission: { replay: encodeReplay(r.replay), claimed: claimOf(r.played.result) }, now: r.doneAt,
    });
    expect(outcome).toMatchObject({ ok: true, status: 201 });
  });

  it('still refuses a log that runs ahead of the wall clock since the deal', async () => {
    // Five seconds after the deal, a browser cannot be at tick 600.
    const r = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 5_000 });
    expect(r.first).toMatchObject({ code: 'ahead_of_clock' });
    // Refused as any live game that runs ahead: the ticket is spent and the refusal recorded.
    await r.closed;
    const db = await getDb();
    expect(await db.gameTicket.findUnique({ where: { id: r.ticket.gameId }, select: { usedAt: true } })).toMatchObject({ usedAt: expect.any(Date) });
    expect(await db.rejectedSubmission.count({ where: { ticketId: r.ticket.gameId, code: 'ahead_of_clock' } })).toBe(1);
  });

  it('excuses only the outage: falling behind afterwards loses the rank as before', async () => {
    const r = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, lagAfterMs: 8_000 });
    await r.closed;
    expect(r.sent.find((m) => m.t === 'status' && !m.ranked)).toMatchObject({ reason: 'too_slow' });
    expect(r.sent.find((m) => m.t === 'over')).toMatchObject({ ranked: false });
  });

  it('handed over by another instance, keeps the lag it had there: the gap is excused, not the lag before it', async () => {
    // Slow motion: 2.5 s behind at its last batch on the host it left, and 2.5 s more after the take-up.
    // Dropping and reconnecting through another instance once reset the lag to nothing: at will, a
    // few times a game, slow motion never reached the bound.
    const kept = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, lagAfterMs: 2_500, carried: { pauses: 0, unranked: null, lagMs: 2_500 }, name: 'slow-motion' });
    await kept.closed;
    expect(kept.sent.find((m) => m.t === 'status' && !m.ranked)).toMatchObject({ reason: 'too_slow' });
    // The same play from no lag stays within the bound; and the lag carried on is the one it has here.
    const fresh = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, lagAfterMs: 2_500, carried: { pauses: 0, unranked: null }, name: 'fresh-start' });
    expect(fresh.sent.some((m) => m.t === 'status' && !m.ranked)).toBe(false);
    expect(fresh.sent.find((m) => m.t === 'over')).toMatchObject({ ranked: true });
    const honest = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, carried: { pauses: 0, unranked: null, lagMs: 2_500 }, name: 'honest-lag' });
    expect(honest.sent.find((m) => m.t === 'over')).toMatchObject({ ranked: true });
    // Handed on again, it carries that lag on, less what its waits for pieces here earned (the next host's bound starts afresh).
    expect(honest.host.carried().lagMs).toBeGreaterThan(0);
    expect(honest.host.carried().lagMs).toBeLessThanOrEqual(2_500);
  });

  it('takes back what held-back play shows right after the catch-up: a tick declared below where the browser was buys no credit', async () => {
    // 2.5 s behind when handed over; 2 s of play past the declared tick held back and sent at once
    // after the catch-up; then 1.5 s more of slow motion. The burst once came off the kept lag (2.5 -
    // 2 + 1.5 = 2 s: ranked), and its batches earned starve credit besides.
    const carried: Carried = { pauses: 0, unranked: null, lagMs: 2_500 };
    const held = await adopted({ catchUpTo: 600, heldTicks: 120, elapsedAtAdoptMs: 25_000, lagAfterMs: 1_500, carried, name: 'held-back' });
    await held.closed;
    expect(held.sent.find((m) => m.t === 'status' && !m.ranked)).toMatchObject({ reason: 'too_slow' });
    // Declared where the browser was, the same play is 2.5 + 1.5 = 4 s behind too; and without the
    // slow motion after it, the held-back play is judged where it was, 2.5 s behind: ranked.
    const honest = await adopted({ catchUpTo: 600, heldTicks: 120, elapsedAtAdoptMs: 25_000, carried, name: 'held-no-slower' });
    expect(honest.sent.some((m) => m.t === 'status' && !m.ranked)).toBe(false);
  });

  it('takes no declared tick below what the lost host had acknowledged: a resume saying tick 0 is excused nothing at its first batch, so the rest of its log is no credit', async () => {
    // Acknowledged to tick 600; the resume declares 0, sends tick 60, then the rest 200 ms later, then
    // falls 6 s behind: excused at tick 60, the 9 s it sent after were 9 s to fall behind by.
    const r = await adopted({ catchUpTo: 600, declared: 0, acked: 600, splitAt: 60, splitTakesMs: 200, elapsedAtAdoptMs: 25_000, lagAfterMs: 6_000, name: 'low-declared' });
    await r.closed;
    expect(r.sent.find((m) => m.t === 'status' && !m.ranked)).toMatchObject({ reason: 'too_slow' });
    // Declared where the browser was, the same catch-up is excused the gap and plays on ranked.
    const honest = await adopted({ catchUpTo: 600, acked: 600, splitAt: 60, splitTakesMs: 200, elapsedAtAdoptMs: 25_000, name: 'declared-right' });
    expect(honest.sent.find((m) => m.t === 'over')).toMatchObject({ ranked: true });
  });

  it('carries the least lag of its last batches: one held up on a failing link just before the hand-over is not taken for the game\'s', async () => {
    const owner = await player('spiky');
    const ticket = await issueTicket({ live: true, mode: 'sprint', owner });
    const replay: Replay = { ...botGame('sprint', ticket.seed).replay, nextCount: 5 };
    let now = 0;
    const host = new GameHost({
      gameId: ticket.gameId, seed: ticket.seed, mode: 'sprint', rulesVersion: ticket.rulesVersion, handling: replay.handling, nextCount: 5,
      owner, player: { name: 'spiky', guest: false }, bus: createLocalBus(), now: () => now, finalizeAfterMs: null, onClose: () => {},
    });
    host.attach({ send: () => {} });
    const events = (from: number, to: number) => replay.events.filter((e) => e.tick >= from && e.tick < to).map(toWireEvent);
    let seq = 1;
    // 5 s at pace, 300 ms behind; then the last batch arrives 2.6 s later than it was sent, and nothing after it.
    for (let tick = 0; tick < 300; tick += 6) {
      now = msAt(tick + 6) + 300;
      expect(host.inputs(seq++, tick + 6, events(tick, tick + 6))).toBeNull();
    }
    const steady = host.carried().lagMs!;
    now = msAt(306) + 2_900;
    expect(host.inputs(seq++, 306, events(300, 306))).toBeNull();
    expect(steady).toBeLessThanOrEqual(300);
    expect(host.carried().lagMs).toBe(steady);
    host.close('hand_over');
  });

  it('excuses the gap once, at the batch that reaches the declared tick, however the catch-up is cut', async () => {
    const r = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, splitAt: 300, splitTakesMs: 200 });
    expect(r.first).toBeNull();
    expect(r.sent.find((m) => m.t === 'over')).toMatchObject({ ranked: true });
  });

  it('counts the time its catch-up took as time away: a tick declared above where the browser was, reached slowly, is no free slow motion', async () => {
    // Close to the away budget; declared tick 600 with the browser at 480: the 2 s of play between come 4.8 s after the take-up.
    const near: Carried = { pauses: 0, unranked: null, awayMs: PACING.maxAwayMs - 3_000 };
    const slow = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, splitAt: 480, splitTakesMs: 4_800, carried: near, name: 'declared-high' });
    await slow.closed;
    expect(slow.sent.find((m) => m.t === 'status' && !m.ranked)).toMatchObject({ reason: 'disconnected' });
    // The same log in one burst right after the take-up, as a browser sends it, keeps its rank.
    const burst = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, splitAt: 480, splitTakesMs: 200, carried: near, name: 'declared-burst' });
    expect(burst.sent.find((m) => m.t === 'over')).toMatchObject({ ranked: true });
  });

  it('counts a catch-up left unfinished in what it carries on (a drop, then a take-up elsewhere), and a drop within one only once', async () => {
    const owner = await player('hopper');
    const issuedAt = new Date(Date.now() - 25_000);
    const ticket = await issueTicket({ live: true, mode: 'sprint', owner, now: issuedAt });
    const replay: Replay = { ...botGame('sprint', ticket.seed).replay, nextCount: 5 };
    const events = (from: number, to: number) => replay.events.filter((e) => e.tick >= from && e.tick < to).map(toWireEvent);
    const takeUp = () => {
      const clock = { now: 0 };
      const host = new GameHost({
        gameId: ticket.gameId, seed: ticket.seed, mode: 'sprint', rulesVersion: ticket.rulesVersion, handling: replay.handling, nextCount: 5,
        owner, player: { name: 'hopper', guest: false }, bus: createLocalBus(), now: () => clock.now, finalizeAfterMs: null, onClose: () => {},
        adopted: { issuedAtMs: issuedAt.getTime(), catchUpTo: 600 },
      });
      const seat = { send: () => {} };
      host.resume(seat, resumeTokenOf(ticket.gameId));
      return { host, seat, clock };
    };
    // Declared 600, sent up to 480, then 4 s of nothing: dropped and taken up elsewhere, those 4 s go with it.
    const left = takeUp();
    expect(left.host.inputs(1, 480, events(0, 480))).toBeNull();
    left.clock.now = 4_000;
    left.host.detach(left.seat);
    expect(left.host.handOver()?.awayMs).toBe(4_000);
    left.host.close('hand_over');
    // Dropped 2 s into it and handed over 2 s later (asked, or shutting down): 2 s of catch-up and 2 s away, not the drop twice.
    for (const hand of ['handOver', 'shutDown'] as const) {
      const gone = takeUp();
      expect(gone.host.inputs(1, 480, events(0, 480))).toBeNull();
      gone.clock.now = 2_000;
      gone.host.detach(gone.seat);
      gone.clock.now = 4_000;
      expect((await gone.host[hand]())?.awayMs).toBe(4_000);
      gone.host.close('hand_over');
    }
    // Let go quiet past its window and then handed over, a catch-up owes its time up to the window's end
    // (its next batch here would be excused nothing; elsewhere a new catch-up would be): nothing hops for free.
    const stalled = takeUp();
    expect(stalled.host.inputs(1, 480, events(0, 480))).toBeNull();
    stalled.clock.now = PACING.catchUpWindowMs + 20_000;
    expect(stalled.host.carried().awayMs).toBe(PACING.catchUpWindowMs);
    stalled.host.close('hand_over');
    // Resent at pace for 30 s (a batch a second, each moving it on), then quiet for 6 s: 35 s go with it.
    const trickled = takeUp();
    for (let t = 0; t < 30; t++) {
      trickled.clock.now = t * 1_000;
      expect(trickled.host.inputs(t + 1, 10 + t * 15, events(t === 0 ? 0 : t * 15 - 5, 10 + t * 15))).toBeNull();
    }
    trickled.clock.now = 29_000 + 6_000;
    expect(trickled.host.carried().awayMs).toBe(29_000 + PACING.catchUpWindowMs);
    trickled.host.close('hand_over');
    // A batch that moves nothing on (the tick already resent) keeps nothing open.
    const idle = takeUp();
    expect(idle.host.inputs(1, 480, events(0, 480))).toBeNull();
    idle.clock.now = 4_000;
    expect(idle.host.inputs(2, 480, [])).toBeNull();
    idle.clock.now = 20_000;
    expect(idle.host.carried().awayMs).toBe(PACING.catchUpWindowMs);
    idle.host.close('hand_over');
    // Dropped for 1 s within a catch-up finished 3 s after the take-up: 1 s away, 2 s of catch-up, 3 s in all.
    const back = takeUp();
    expect(back.host.inputs(1, 480, events(0, 480))).toBeNull();
    back.clock.now = 1_000;
    back.host.detach(back.seat);
    back.clock.now = 2_000;
    expect(back.host.resume(back.seat, resumeTokenOf(ticket.gameId))).toBe(true);
    back.clock.now = 3_000;
    expect(back.host.inputs(2, 600, events(480, 600))).toBeNull();
    expect(back.host.carried().awayMs).toBe(3_000);
    back.host.close('hand_over');
  });

  it('excuses a long log resent at the page\'s pace, however long it takes within the time away allowed: each batch keeps the catch-up open', async () => {
    // 12 batches a second apart: 11 s in all, each within PACING.catchUpWindowMs of the one before.
    expect(PACING.catchUpWindowMs).toBeLessThan(11_000);
    const r = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, parts: { count: 12, everyMs: 1_000 }, name: 'long-log' });
    expect(r.first).toBeNull();
    expect(r.sent.filter((m) => m.t === 'status' && !m.ranked)).toEqual([]);
    expect(r.sent.at(-1)).toMatchObject({ t: 'over', ranked: true });
    // Its time is time away: past what a game may be away in all, nothing is excused.
    const slow = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, parts: { count: 20, everyMs: PACING.catchUpWindowMs - 1 }, name: 'long-log-slow' });
    expect(slow.sent.find((m) => m.t === 'status' && !m.ranked)).toBeDefined();
  });

  it('keeps a catch-up open through a drop within it longer than its window: the drop is time away, not the catch-up running late', async () => {
    const r = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, splitAt: 300, splitTakesMs: 1_000, name: 'dropped-in-catch-up', dropAfterSplitMs: 8_000 });
    expect(r.first).toBeNull();
    expect(r.sent.filter((m) => m.t === 'status' && !m.ranked)).toEqual([]);
    expect(r.sent.at(-1)).toMatchObject({ t: 'over', ranked: true });
  });

  it('excuses nothing when the catch-up does not reach its declared tick in time', async () => {
    // The log stops at tick 300 of the 600 declared, and the rest comes 6 s later.
    const r = await adopted({ catchUpTo: 600, elapsedAtAdoptMs: 25_000, splitAt: 300, splitTakesMs: 6_000 });
    expect(r.sent.find((m) => m.t === 'status' && !m.ranked)).toMatchObject({ reason: 'too_slow' });
  });

  it('refuses a batch that runs the clock more than a minute, however late the game was taken up', async () => {
    // Two minutes after the deal, a catch-up may reach tick 4000, but not in one batch: the
    // server simulates a batch in one go (MAX_BATCH_TICKS).
    const r = await adopted({ catchUpTo: 4_000, elapsedAtAdoptMs: 120_000 });
    expect(r.first).toMatchObject({ code: 'bad_inputs' });
    expect(r.sent.some((m) => m.t === 'ack')).toBe(false);
    r.host.close('hand_over');
  });

  it('derives the resume token from the game id and the secret, the same in every process', () => {
    expect(resumeTokenOf('abcdefgh12')).toBe(resumeTokenOf('abcdefgh12'));
    expect(resumeTokenOf('abcdefgh12')).not.toBe(resumeTokenOf('abcdefgh13'));
    expect(resumeTokenOf('abcdefgh12')).toHaveLength(32);
  });
});

describe('a live game taken up after a crash or a restart, with nothing handed over', () => {
  const resumeAt = (g: Lost, tick: number): ClientMessage => ({
    t: 'resume', of: { kind: 'game', id: g.ticket.gameId }, token: resumeTokenOf(g.ticket.gameId), setup: { handling: g.replay.handling, nextCount: 5, tick },
  });

  it('keeps the lag of its last checkpoint: the gap is excused, not the lag before it', async () => {
    // Slow motion, 2.5 s behind, when the only instance restarted (a deploy) or crashed: its
    // restart once reset the lag to nothing, so a slow-motion game began again from no lag at
    // each deploy of a site on one instance. What the take-up keeps is what its catch-up excuses
    // less (the hand-over test above plays that out on a clock of its own).
    const takenUp = async (g: Lost) => {
      const row = await (await getDb()).gameTicket.findUniqueOrThrow({ where: { id: g.ticket.gameId }, select: { liveLagMs: true } });
      const site = liveSite(g.owner);
      await dispatch(site.hub, site.conn, resumeAt(g, 600));
      const host = site.hosts.get(g.ticket.gameId)!;
      const kept = host.carried().lagMs;
      host.close('hand_over');
      return { written: row.liveLagMs, kept };
    };
    const slow = await takenUp(await lostAt(600, { lagMs: 2_500 }));
    expect(slow.written).toBeGreaterThan(1_500);
    expect(slow.kept).toBe(slow.written);
    // A game that kept pace comes back with none.
    expect(await takenUp(await lostAt(600, { owner: await player('paced') }))).toEqual({ written: 0, kept: 0 });
  });

  it('keeps that lag through its catch-up however the log is cut: resent history waits for no piece, so it earns no starve credit', async () => {
    // Cut in 20 batches, each taking a piece or two: every one of them earned a round trip's credit
    // (300 ms before any is measured), 6 s in all, so the lag kept came out at none and the game
    // had that much more to fall behind by, at every take-up.
    const g = await lostAt(600, { lagMs: 2_500 });
    const { liveLagMs } = await (await getDb()).gameTicket.findUniqueOrThrow({ where: { id: g.ticket.gameId }, select: { liveLagMs: true } });
    const site = liveSite(g.owner);
    await dispatch(site.hub, site.conn, resumeAt(g, 600));
    const host = site.hosts.get(g.ticket.gameId)!;
    for (let tick = 0, seq = 1; tick < 600; tick += 30, seq++) expect(host.inputs(seq, tick + 30, wire(g.replay.events, tick, tick + 30))).toBeNull();
    // The batch that reaches the declared tick leaves its page waiting for a deal, as any batch may: that round trip's credit, no more.
    expect(host.carried().lagMs).toBeGreaterThanOrEqual(liveLagMs! - PACING.starveCreditMaxMs);
    host.close('hand_over');
  });

  it('keeps the lag of the later account when a hand-over carried one too: a game that caught up is not held to an old lag', async () => {
    const g = await lostAt(600);
    const { liveAckTick } = await (await getDb()).gameTicket.findUniqueOrThrow({ where: { id: g.ticket.gameId }, select: { liveAckTick: true } });
    const lagTaken = async (ackTick: number) => {
      const site = liveSite(g.owner, { pauses: 0, unranked: null, ack: checkpointAt(g.replay, ackTick), lagMs: 2_500 });
      await dispatch(site.hub, site.conn, resumeAt(g, 600));
      const host = site.hosts.get(g.ticket.gameId)!;
      const lag = host.carried().lagMs;
      host.close('hand_over');
      return lag;
    };
    // The checkpoint is later than the carry (written by the host it went to): the checkpoint's lag, none.
    expect(await lagTaken(liveAckTick! - 60)).toBe(0);
    // The carry as late as the checkpoint: the carry's, taken as its host let the game go, after that checkpoint.
    expect(await lagTaken(liveAckTick!)).toBe(2_500);
  });
});

describe('a live game hosted nowhere, as a spectator asking for it sees it (mayBeTakenUp)', () => {
  it('may be taken up while its ticket is open; not once given up, stored or expired, nor a solo ticket or a made-up id', async () => {
    const g = await lostAt(600);
    const db = await getDb();
    expect(await mayBeTakenUp(g.ticket.gameId)).toBe(true);
    expect(await mayBeTakenUp('nosuchgame0000')).toBe(false);
    const plain = await issueTicket({ live: false, mode: 'sprint', owner: g.owner, now: new Date() });
    expect(await mayBeTakenUp(plain.gameId)).toBe(false);
    for (const change of [{ liveGivenUpAt: new Date() }, { usedAt: new Date() }, { streamDigest: 'recorded' }, { expiresAt: new Date(Date.now() - 1) }]) {
      await db.gameTicket.update({ where: { id: g.ticket.gameId }, data: change });
      expect(await mayBeTakenUp(g.ticket.gameId), JSON.stringify(change)).toBe(false);
      await db.gameTicket.update({ where: { id: g.ticket.gameId }, data: { liveGivenUpAt: null, usedAt: null, streamDigest: null, expiresAt: new Date(Date.now() + 60_000) } });
      expect(await mayBeTakenUp(g.ticket.gameId)).toBe(true);
    }
    g.lost.close('hand_over');
  });
});
