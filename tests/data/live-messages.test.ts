import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING } from '@/lib/engine';
import { parseClientMessage, type ClientMessage, type InputsMessage, type ServerMessage } from '@/lib/live/protocol';
import { createLocalBus } from '@/lib/server/live/cluster/bus';
import type { Connection } from '@/lib/server/live/connection';
import type { LiveHub } from '@/lib/server/live/hub';
import { VersusLobby } from '@/lib/server/live/match/versus-lobby';
import { localDoor } from '@/lib/server/live/match/versus-relay';
import { runMessage } from '@/lib/server/live/messages';
import type { TeamQueue } from '@/lib/server/live/rooms/team-queue';
import { liveConnection, liveSite } from '@/tests/data/live-site';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { roomSite, rules } from '@/tests/support/room-site';

afterEach(() => vi.restoreAllMocks());

describe('running a live message', () => {
  it('answers server_error for a bug, whether it throws at once or after the handler waited', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const site = liveSite({ userId: null, guestId: 'guest-of-a-bug' });
    const bug = () => {
      throw new Error('a bug');
    };
    // `watch` reads the hosts at once; `start` takes its per-address slot inside its async handler.
    const hub = { ...site.hub, hosts: { get: bug }, gamesByAddress: { take: bug } } as unknown as LiveHub;
    const serverError = { t: 'error', code: 'server_error', message: 'The server could not handle this message.' };

    runMessage(hub, site.conn, { t: 'watch', of: { kind: 'game', id: 'abcdefgh1' } });
    expect(site.sent).toEqual([serverError]);

    runMessage(hub, site.conn, { t: 'start', mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    await vi.waitFor(() => expect(site.sent).toEqual([serverError, serverError]));
    expect(logged).toHaveBeenCalledTimes(2);
  });

  it('takes what a handler returns for a promise only when it is one (a stub socket\'s send returns a count)', () => {
    const site = liveSite({ userId: null, guestId: 'guest-who-pings' });
    runMessage(site.hub, site.conn, { t: 'ping', n: 7 });
    expect(site.sent).toEqual([{ t: 'pong', n: 7 }]);
  });
});

const base = { handling: DEFAULT_HANDLING, nextCount: 5 };
/** One instance's wiring (hub.ts): a real versus lobby and room lobby behind the door. */
function oneInstance() {
  // Both lobbies on one hand-turned clock: nothing plays on, or is stored, once the test is over.
  const rooms = roomSite();
  const versus = new VersusLobby({
    bus: createLocalBus(), ratingOf: async () => ({ rating: 1500, band: null }), rankedEntry: async () => ({ ok: true as const, avoid: [] }),
    now: rooms.clock.now, timers: rooms.clock.timers,
  });
  const hub = { ...liveSite({ userId: null, guestId: 'nobody' }).hub, door: localDoor(versus, { rooms: rooms.lobby, teams: {} as TeamQueue }), draining: false } as unknown as LiveHub;
  return { versus, rooms, hub, say: (c: { conn: Connection }, m: ClientMessage) => runMessage(hub, c.conn, m) };
}
const guest = (id: string) => liveConnection({ userId: null, guestId: id }, `10.7.0.${id.length}`);
const last = <T extends ServerMessage['t']>(sent: ServerMessage[], t: T) => sent.filter((m): m is Extract<ServerMessage, { t: T }> => m.t === t).at(-1);

describe("a seat's batch (protocol 2: one family, keyed by its stream)", () => {
  it('a room of two is left even past the lobby budget: a leave refused would keep the seat of a page that went to the lobby', () => {
    const { say } = oneInstance();
    const maker = guest('leaving-maker');
    const friend = guest('leaving-friend');
    say(maker, { t: 'room_create', mode: 'battle', firstTo: 1, ...base });
    const code = (last(maker.sent, 'room') as Extract<ServerMessage, { t: 'room' }>).room.code;
    say(friend, { t: 'room_join', code, ...base });
    for (let i = 0; i < LIVE_LIMITS.lobbyMessagesPerMinute; i++) say(maker, { t: 'ready', code, ready: false });
    expect(last(maker.sent, 'error')).toMatchObject({ code: 'rate_limited' });
    say(maker, { t: 'room_leave', code });
    expect(last(friend.sent, 'room_closed')).toEqual({ t: 'room_closed', code, reason: 'left' });
  });

  it('a leave naming a room the socket is not in is spent from the lobby budget: past it, refused and gone no further', () => {
    const { say } = oneInstance();
    const stranger = guest('leaving-stranger');
    // Each would reach the home, across Redis from any other instance: a made-up code costs the budget like any room message.
    for (let i = 0; i < LIVE_LIMITS.lobbyMessagesPerMinute + 3; i++) say(stranger, { t: 'room_leave', code: 'ZZZZZZ' });
    const codes = stranger.sent.map((m) => (m.t === 'error' ? m.code : m.t));
    expect(codes.filter((c) => c === 'unknown_room')).toHaveLength(LIVE_LIMITS.lobbyMessagesPerMinute);
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(1);
  });

  it("reaches the match or room set its socket was told it plays; one naming any other stream is answered on the socket, reaching no lobby", async () => {
    const { versus, rooms, say } = oneInstance();
    const a = guest('a-player');
    const b = guest('b-player');
    say(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    say(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await vi.waitFor(() => expect(last(a.sent, 'match')).toBeDefined());
    const matchId = (last(a.sent, 'match') as Extract<ServerMessage, { t: 'match' }>).matchId;
    const batch: InputsMessage = { t: 'inputs', stream: matchId, game: 0, seq: 1, tick: 0, events: [] };
    say(a, batch);
    expect(last(a.sent, 'ack')).toEqual({ t: 'ack', stream: matchId, game: 0, seq: 1, tick: 0 });

    // A room of one person and a bot, started: its seat's batches go to the room's set.
    const alice = guest('alice-room');
    say(alice, { t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
    const code = (last(alice.sent, 'rroom') as Extract<ServerMessage, { t: 'rroom' }>).code;
    say(alice, { t: 'rready', code, ready: true });
    say(alice, { t: 'rstart', code });
    const setId = (last(alice.sent, 'rmatch') as Extract<ServerMessage, { t: 'rmatch' }>).matchId;
    say(alice, { t: 'inputs', stream: setId, game: 0, seq: 1, tick: 0, events: [] });
    expect(last(alice.sent, 'ack')).toEqual({ t: 'ack', stream: setId, game: 0, seq: 1, tick: 0 });

    // Streams a socket was never told it plays: another's match, a room set from a versus seat, a made-up id.
    const versusHeard = vi.spyOn(versus, 'handle');
    const roomsHeard = vi.spyOn(rooms.lobby, 'handle');
    const stranger = guest('stranger');
    for (const [who, stream] of [[stranger, matchId], [stranger, setId], [alice, matchId], [a, setId], [a, 'madeup0001']] as const) {
      say(who, { ...batch, stream, seq: 2 });
      expect(last(who.sent, 'error')).toMatchObject({ code: 'unknown_game', gameId: stream });
    }
    expect(versusHeard).not.toHaveBeenCalled();
    expect(roomsHeard).not.toHaveBeenCalled();

    // Its own stream, shaped for another family: refused by its host, nothing played.
    say(a, { ...batch, seq: 2, tick: 1, targets: [[1, 0]] });
    expect(last(a.sent, 'error')).toMatchObject({ code: 'bad_message', gameId: matchId, seq: 2 });
    say(alice, { t: 'inputs', stream: setId, seq: 2, tick: 1, events: [] });
    expect(last(alice.sent, 'error')).toMatchObject({ code: 'bad_message', gameId: setId, seq: 2 });

    // Out of the set by its own rleave: its batches to it are answered on the socket from then on, as a made-up one's.
    say(alice, { t: 'leave', of: { kind: 'room', id: code } });
    roomsHeard.mockClear();
    say(alice, { t: 'inputs', stream: setId, game: 0, seq: 2, tick: 1, events: [] });
    expect(last(alice.sent, 'error')).toMatchObject({ code: 'unknown_game', gameId: setId });
    expect(roomsHeard).not.toHaveBeenCalled();
    versus.close();
    rooms.lobby.close();

  });
});

describe('watch, resume and leave (protocol 3: one message each, naming what it is for)', () => {
  it('refuses what a message does not take, and the older per-family messages, before any work', () => {
    const id = 'abcdefgh12';
    for (const m of [
      { t: 'resume', of: { kind: 'match', id }, token: 'x'.repeat(24), setup: { handling: DEFAULT_HANDLING, nextCount: 5, tick: 0 } }, // a solo game's alone
      { t: 'resume', of: { kind: 'room', id: 'ABCDEF' }, token: 'x'.repeat(24) },
      { t: 'leave', of: { kind: 'set', id } },
      { t: 'watch', of: { kind: 'set', id } },
      { t: 'watch', of: { kind: 'room', id } }, // a room is named by its code
      { t: 'watch', of: { kind: 'game', id: 'ABCDEF' } },
      { t: 'watch', gameId: id },
      { t: 'vwatch', matchId: id },
      { t: 'rresume', matchId: id, token: 'x'.repeat(24) },
      { t: 'vleave', matchId: id },
    ]) expect(parseClientMessage(JSON.stringify(m)), JSON.stringify(m)).toMatchObject({ ok: false, code: 'bad_message' });
  });

  it('each reaches the part holding what it names, as that part\'s command, under its budgets', async () => {
    const { versus, rooms, say } = oneInstance();
    const versusHeard = vi.spyOn(versus, 'handle');
    const roomsHeard = vi.spyOn(rooms.lobby, 'handle');
    const a = guest('a-seat');
    const b = guest('b-seat');
    say(a, { t: 'queue', mode: 'battle', ranked: false, ...base });
    say(b, { t: 'queue', mode: 'battle', ranked: false, ...base });
    await vi.waitFor(() => expect(last(a.sent, 'match')).toBeDefined());
    const { matchId, resumeToken } = last(b.sent, 'match')!;

    const watcher = guest('a-watcher');
    say(watcher, { t: 'watch', of: { kind: 'match', id: matchId } });
    expect(versusHeard).toHaveBeenLastCalledWith(watcher.conn, { t: 'vwatch', matchId });
    expect(last(watcher.sent, 'vwatching')).toMatchObject({ matchId });
    say(watcher, { t: 'unwatch', of: { kind: 'match', id: matchId } });
    expect(versusHeard).toHaveBeenLastCalledWith(watcher.conn, { t: 'vunwatch', matchId });

    // Its seat taken up from another socket of its owner, then left.
    const tab = liveConnection({ userId: null, guestId: 'b-seat' }, '10.8.0.6');
    say(tab, { t: 'resume', of: { kind: 'match', id: matchId }, token: resumeToken });
    expect(last(tab.sent, 'vresumed')).toMatchObject({ matchId });
    say(tab, { t: 'leave', of: { kind: 'match', id: matchId } });
    expect(versusHeard).toHaveBeenLastCalledWith(tab.conn, { t: 'vleave', matchId });
    expect(tab.sent.filter((m) => m.t === 'error')).toEqual([]); // taken and left by its owner's socket: nothing refused

    // A room of one person and a bot: watched by its code, its set's seat resumed by the set's id, left by the code.
    const alice = guest('alice-set');
    say(alice, { t: 'rcreate', mode: 'battle', size: 2, rules: rules(), bots: [{ seat: 1, pps: 1, style: 'tidy' }], handling: DEFAULT_HANDLING });
    const code = last(alice.sent, 'rroom')!.code;
    say(watcher, { t: 'watch', of: { kind: 'room', id: code } });
    expect(roomsHeard).toHaveBeenLastCalledWith(watcher.conn, { t: 'rwatch', code });
    expect(last(watcher.sent, 'rroom')).toMatchObject({ code, you: null });
    say(alice, { t: 'rready', code, ready: true });
    say(alice, { t: 'rstart', code });
    const set = last(alice.sent, 'rmatch')!;
    const again = liveConnection({ userId: null, guestId: 'alice-set' }, '10.8.0.9');
    say(again, { t: 'resume', of: { kind: 'set', id: set.matchId }, token: set.resumeToken! });
    expect(roomsHeard).toHaveBeenLastCalledWith(again.conn, { t: 'rresume', matchId: set.matchId, token: set.resumeToken });
    expect(last(again.sent, 'rresumed')).toMatchObject({ matchId: set.matchId });
    say(again, { t: 'leave', of: { kind: 'room', id: code } });
    expect(roomsHeard).toHaveBeenLastCalledWith(again.conn, { t: 'rleave', code });
    say(watcher, { t: 'unwatch', of: { kind: 'room', id: code } });
    expect(roomsHeard).toHaveBeenLastCalledWith(watcher.conn, { t: 'runwatch', code });

    // A banned player's resume is refused at the door, whatever it names; the lobby never hears it.
    const banned = liveConnection({ userId: null, guestId: 'b-seat' }, '10.8.0.7');
    banned.conn.session = { version: 0, role: 'player', banned: true };
    const heardBefore = versusHeard.mock.calls.length + roomsHeard.mock.calls.length;
    say(banned, { t: 'resume', of: { kind: 'match', id: matchId }, token: resumeToken });
    say(banned, { t: 'resume', of: { kind: 'set', id: set.matchId }, token: set.resumeToken! });
    expect(banned.sent.filter((m) => m.t === 'error').map((m) => m.t === 'error' && m.code)).toEqual(['banned', 'banned']);
    expect(versusHeard.mock.calls.length + roomsHeard.mock.calls.length).toBe(heardBefore);
    versus.close();
    rooms.lobby.close();
  });
});
