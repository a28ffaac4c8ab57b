import { beforeEach, describe, expect, it } from 'vitest';
import type { ClientMessage } from '@/lib/live/protocol';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { getDb } from '@/lib/server/db';
import { issueTicket } from '@/lib/server/games/tickets';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { GameHost } from '@/lib/server/live/solo/game-host';
import { PACING } from '@/lib/server/live/pacing';
import { player } from '@/tests/data/play';
import { adoptLiveGame } from '@/lib/server/live/solo/adopt';
import { dispatch } from '@/lib/server/live/messages';
import { resumeTokenOf } from '@/lib/server/live/solo/resume-token';
import { resetDb } from '@/tests/data/db';
import { liveSite, lostAt, wire } from '@/tests/data/live-site';

beforeEach(resetDb);

/** A live game in the site's hub, played on the site's connection, on a clock of the test's. */
async function clockedHost(site: ReturnType<typeof liveSite>) {
  const owner = site.conn.owner;
  const ticket = await issueTicket({ live: true, mode: 'sprint', owner });
  const clock = { now: 0 };
  const host = new GameHost({
    gameId: ticket.gameId, seed: ticket.seed, mode: 'sprint', rulesVersion: ticket.rulesVersion, handling: DEFAULT_HANDLING, nextCount: 5,
    owner, player: site.conn.player, bus: site.hub.bus, now: () => clock.now, finalizeAfterMs: null,
    onClose: (h) => site.hub.removeGame(h, () => {}),
  });
  site.hub.addGame(host);
  host.attach(site.conn);
  site.conn.host = host;
  return { host, seat: site.conn, sent: site.sent, clock, token: resumeTokenOf(ticket.gameId) };
}

type Lost = Awaited<ReturnType<typeof lostAt>>;
const resumeOf = (g: Lost): ClientMessage => ({
  t: 'resume', of: { kind: 'game', id: g.ticket.gameId }, token: resumeTokenOf(g.ticket.gameId), setup: { handling: g.replay.handling, nextCount: 5, tick: 300 },
});

describe('resuming a live game on a connection', () => {
  it('adopts a game once however many resumes of it arrive together', async () => {
    const g = await lostAt(300);
    const site = liveSite(g.owner);
    const second = site.connection();
    const adoption = { gameId: g.ticket.gameId, token: resumeTokenOf(g.ticket.gameId), setup: { handling: g.replay.handling, nextCount: 5, tick: 300 } };
    const [a, b] = await Promise.all([adoptLiveGame(site.hub, site.conn, adoption), adoptLiveGame(site.hub, second.conn, adoption)]);
    expect(a).toBeInstanceOf(GameHost);
    expect(b).toBe(a);
    // The second waited for the first and found its host: the lease was asked for once.
    expect(site.lease.takes).toBe(1);
    expect(site.hub.adoptions.size).toBe(0);
    (a as GameHost).close('hand_over');
  });

  it('an adoption that throws gives back its address slot and its lease', async () => {
    const g = await lostAt(300);
    const site = liveSite(g.owner);
    const released: string[] = [];
    site.hub.leases.release = async (gameId) => (released.push(gameId), true);
    // A setup the engine refuses makes the host's constructor throw, after the lease was taken.
    const setup = { handling: { ...g.replay.handling, das: -1 }, nextCount: 5, tick: 300 };
    await expect(adoptLiveGame(site.hub, site.conn, { gameId: g.ticket.gameId, token: resumeTokenOf(g.ticket.gameId), setup })).rejects.toThrow();
    expect(site.lease.takes).toBe(1);
    expect(released).toEqual([g.ticket.gameId]);
    expect(site.hub.gamesByAddress.count(site.conn.address)).toBe(0);
  });

  it('a game asked for by another instance goes with its time away, or is given up past the resume window', async () => {
    const site = liveSite(await player('roamer'));
    const inWindow = await clockedHost(site);
    inWindow.host.detach(inWindow.seat);
    inWindow.clock.now += PACING.resumeWindowMs;
    expect(inWindow.host.handOver()).toMatchObject({ awayMs: PACING.resumeWindowMs });
    inWindow.host.close('hand_over');

    const late = await clockedHost(site);
    late.host.detach(late.seat);
    late.clock.now += PACING.resumeWindowMs + 1;
    const removal = site.nextRemoval();
    expect(late.host.handOver()).toBeNull();
    await removal;
    const ticket = await (await getDb()).gameTicket.findUniqueOrThrow({ where: { id: late.host.gameId } });
    expect(ticket.liveGivenUpAt).not.toBeNull();
  });

  it('a socket that closed while its game was taken up leaves the game unseated, in its resume window', async () => {
    const g = await lostAt(300);
    const site = liveSite(g.owner);
    const taking = dispatch(site.hub, site.conn, resumeOf(g));
    (site.conn.ws as { readyState: number }).readyState = 3; // closed under the adoption's awaits
    await taking;
    const host = site.hosts.get(g.ticket.gameId)!;
    expect(host.seated(site.conn)).toBe(false);
    expect(site.conn.host).toBeNull();
    expect(site.sent.some((m) => m.t === 'resumed')).toBe(false);
    // Its player, back on a new socket within the window, carries on.
    const back = site.connection();
    await dispatch(site.hub, back.conn, resumeOf(g));
    expect(back.sent.at(-1)).toMatchObject({ t: 'resumed', gameId: g.ticket.gameId });
    host.close('hand_over');
  });

  it('lets the game the connection played before go, with its resume window', async () => {
    const before = await lostAt(300);
    const site = liveSite(before.owner);
    await dispatch(site.hub, site.conn, resumeOf(before));
    const old = site.conn.host!;
    expect(old.gameId).toBe(before.ticket.gameId);
    // Another game of the same player (another mode: one open ticket per mode), resumed on the same socket.
    const second = await lostAt(300, { owner: before.owner, mode: 'ultra' });
    await dispatch(site.hub, site.conn, resumeOf(second));
    expect(site.conn.host?.gameId).toBe(second.ticket.gameId);
    expect(old.seated(site.conn)).toBe(false);
    const sentBefore = site.sent.length;
    old.pause(); // a zombie would still talk to this socket
    expect(site.sent.length).toBe(sentBefore);
    old.close('hand_over');
    site.conn.host?.close('hand_over');
  });

  it('stops a connection whose seat a later resume took from feeding the game', async () => {
    const g = await lostAt(300);
    const site = liveSite(g.owner);
    const tab = site.connection();
    await dispatch(site.hub, site.conn, resumeOf(g));
    await dispatch(site.hub, tab.conn, resumeOf(g));
    const batch: ClientMessage = { t: 'inputs', stream: g.ticket.gameId, seq: 1, tick: 300, events: wire(g.replay.events, 0, 300) };
    await dispatch(site.hub, site.conn, batch);
    expect(site.sent.at(-1)).toMatchObject({ t: 'error', code: 'unknown_game' });
    await dispatch(site.hub, tab.conn, batch);
    expect(site.sent.some((m) => m.t === 'ack')).toBe(false);
    expect(tab.sent.find((m) => m.t === 'ack')).toMatchObject({ seq: 1, tick: 300 });
    tab.conn.host?.close('hand_over');
  });

  it('counts an adopted game against its network, as a start would', async () => {
    const g = await lostAt(300);
    const site = liveSite(g.owner);
    for (let i = 0; i < LIVE_LIMITS.gamesPerAddress; i++) site.hub.gamesByAddress.take(site.conn.address);
    await dispatch(site.hub, site.conn, resumeOf(g));
    expect(site.sent.at(-1)).toMatchObject({ t: 'error', code: 'resume_failed' });
    expect(site.hosts.size).toBe(0);
  });

  it('gives back the slot an adoption took when no game comes of it', async () => {
    const site = liveSite(await player('nobody'));
    const gameId = 'ab'.repeat(12);
    await dispatch(site.hub, site.conn, { t: 'resume', of: { kind: 'game', id: gameId }, token: resumeTokenOf(gameId), setup: { handling: DEFAULT_HANDLING, nextCount: 5, tick: 0 } });
    expect(site.sent.at(-1)).toMatchObject({ t: 'error', code: 'resume_failed' });
    expect(site.lease.takes).toBe(1);
    expect(site.hub.gamesByAddress.count(site.conn.address)).toBe(0);
  });

  it('excuses time away only up to PACING.maxAwayMs in all, each absence within the window; beyond it the game is unranked', async () => {
    const { host, seat, sent, clock, token } = await clockedHost(liveSite(await player('flaky')));
    const awayFor = (ms: number) => {
      host.detach(seat);
      clock.now += ms;
      expect(host.resume(seat, token)).toBe(true);
    };
    const each = PACING.maxAwayMs / 3;
    expect(each).toBeLessThanOrEqual(PACING.resumeWindowMs);
    for (let i = 0; i < 3; i++) awayFor(each); // exactly the budget: still ranked
    expect(sent.some((m) => m.t === 'status' && !m.ranked)).toBe(false);
    awayFor(1_000);
    expect(sent.find((m) => m.t === 'status' && !m.ranked)).toMatchObject({ reason: 'disconnected' });
    host.close('hand_over');
  });

  it('takes a game up at the very end of PACING.resumeWindowMs', async () => {
    const site = liveSite(await player('just-in-time'));
    const { host, clock, token } = await clockedHost(site);
    host.detach(site.conn);
    clock.now += PACING.resumeWindowMs;
    const tab = site.connection();
    await dispatch(site.hub, tab.conn, { t: 'resume', of: { kind: 'game', id: host.gameId }, token });
    expect(tab.sent).toEqual([expect.objectContaining({ t: 'resumed', gameId: host.gameId })]);
    expect(host.seated(tab.conn)).toBe(true);
    host.close('hand_over');
  });

  it('a second tab taking the game up while the first is still connected: the first is told, once, and plays it no more', async () => {
    const site = liveSite(await player('two-tabs'));
    const { host, token } = await clockedHost(site);
    const before = site.sent.length;
    const tab = site.connection();
    await dispatch(site.hub, tab.conn, { t: 'resume', of: { kind: 'game', id: host.gameId }, token });
    expect(host.seated(tab.conn)).toBe(true);
    expect(site.sent.slice(before)).toEqual([expect.objectContaining({ t: 'error', code: 'seat_taken', gameId: host.gameId })]);
    expect(tab.sent.filter((m) => m.t === 'error')).toEqual([]);
    // The same socket resuming its own seat again is nobody's loss: nothing said.
    await dispatch(site.hub, tab.conn, { t: 'resume', of: { kind: 'game', id: host.gameId }, token });
    expect(tab.sent.filter((m) => m.t === 'error')).toEqual([]);
    // Taken up through another instance (handed over from here): the socket seated here is told too.
    expect(host.handOver()).not.toBeNull();
    expect(tab.sent.filter((m) => m.t === 'error')).toEqual([expect.objectContaining({ code: 'seat_taken', gameId: host.gameId })]);
    host.close('hand_over');
  });

  it('refuses a resume past PACING.resumeWindowMs with resume_failed and gives the game up, however late the timer', async () => {
    const site = liveSite(await player('too-late'));
    const { host, clock, token } = await clockedHost(site);
    host.detach(site.conn);
    clock.now += PACING.resumeWindowMs + 1;
    const removed = site.nextRemoval();
    const tab = site.connection();
    await dispatch(site.hub, tab.conn, { t: 'resume', of: { kind: 'game', id: host.gameId }, token });
    expect(tab.sent).toEqual([expect.objectContaining({ t: 'error', code: 'resume_failed', gameId: host.gameId })]);
    await removed;
    const ticket = await (await getDb()).gameTicket.findUniqueOrThrow({ where: { id: host.gameId }, select: { liveGivenUpAt: true } });
    expect(ticket.liveGivenUpAt).not.toBeNull();
    // Given up once: a second resume meets the closed game and changes nothing.
    await dispatch(site.hub, site.connection().conn, { t: 'resume', of: { kind: 'game', id: host.gameId }, token });
    expect(site.removed).toEqual([host]);
  });
});
