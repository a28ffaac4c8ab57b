import { teamsOf, type Handling, type RoomRules, type VersusMode } from '@/lib/engine';
import { BATCH_INTERVAL_MS, LIVE_PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';
import { isRoomServerMessage, type RoomServerMessage } from '@/lib/live/rooms';
import { isTeamServerMessage } from '@/lib/live/teams';
import type { LivePlayer } from '@/lib/live/wire';
import type { BotSpec } from '@/lib/bot/spec';
import { roomRulesSchema } from '@/lib/validations/rooms';
import { canAim, nextTarget } from '@/lib/client/room-target';
import { LiveSocket, type LinkState, type SocketFactory } from '@/lib/client/live/socket';
import { RoomSeatState } from '@/lib/client/live/room-seat';
import { RoomFields } from '@/lib/client/live/room-fields';
import { WatchRetry } from '@/lib/client/live/watch-retry';

type Msg<T extends RoomServerMessage['t']> = Extract<RoomServerMessage, { t: T }>;
/** The room as the lobby shows it, its rules read with the schema the server checks them by. */
export type RoomLobbyView = Omit<Msg<'rroom'>, 'rules' | 't'> & { rules: RoomRules };
export type KoReason = Msg<'rko'>['why'];

export type RoomPlayView = {
  matchId: string;
  code: string;
  mode: VersusMode;
  /** This page's seat, null when watching. */
  seat: number | null;
  players: LivePlayer[];
  rules: RoomRules;
  teams: number[];
  game: number;
  state: 'countdown' | 'playing' | 'between' | 'over';
  /** [team, games won], by team. */
  score: [number, number][];
  /** Per seat: rows in its meter, whom it aims at, why it is out of this game (null: in). */
  meters: number[];
  aims: number[];
  out: (KoReason | null)[];
  decided: { winner: number | null; reason: Msg<'rgame'>['reason']; placements: number[] } | null;
  over: { winner: number; stored: boolean } | null;
  /** Over for this page because another tab or window of the player took the seat up (seat_taken). */
  elsewhere?: boolean;
};

export type RoomSessionView = {
  link: LinkState;
  /** The code asked for (joined, or watched) until the room answers. */
  code: string | null;
  lobby: RoomLobbyView | null;
  play: RoomPlayView | null;
  /** Why this page is no longer in the room. */
  closed: string | null;
  error: { code: string; message: string } | null;
};

/** What a room session sends through: its own socket, or the one a page already holds. */
export type RoomLink = { send(m: ClientMessage): boolean; readonly link: LinkState };

export type NewRoom = { mode: VersusMode; size: number; rules: RoomRules; bots: { seat: number; pps: number; style: BotSpec['style'] }[] };

const CLOSED: Record<Msg<'rclosed'>['reason'], string> = {
  empty: 'Everyone left, so the room closed.',
  left: 'The room closed.',
  over: 'The game ran too long, so the room closed.',
  refused: 'The room stopped on an error, unstored.',
  kicked: 'The host took you out of the room.',
};

/**
 * The browser's side of a live room (decision 0034), without DOM: one connection, the room's
 * lobby, this page's seat (RoomSeatState: dealt pieces, garbage at the server's ticks, numbered
 * batches with target changes) and every other seat's field (RoomFields). A dropped connection
 * dials again and takes the seat up with `resume`; a watcher watches again. Every message is
 * parsed by the socket with the server's own schemas; the rules, typed only as an object on the
 * wire, are read with the room-rules schema. A page entered from an `rmatch` without a lobby
 * (a queue that seats people in a room) plays the same way: `receive` takes it.
 */
export class RoomSession {
  readonly seat = new RoomSeatState();
  readonly fields = new RoomFields();
  private readonly socket: RoomLink;
  /** The connection this session opened itself (none when it rides a page's, `via`). */
  private readonly own: LiveSocket | null = null;
  private view: RoomSessionView = { link: 'down', code: null, lobby: null, play: null, closed: null, error: null };
  private token = '';
  private handling: Handling | null = null;
  /** What to send again after a reconnect: the request still unanswered, or the room to take up. */
  private wanted: ClientMessage | null = null;
  private lastBatch = 0;
  private resuming = false;
  private readonly retry = new WatchRetry();

  constructor(
    private readonly opts: ({ url: string; connect?: SocketFactory } | { via: RoomLink }) & { onView: (view: RoomSessionView) => void; onGame: () => void; now?: () => number },
  ) {
    if ('via' in opts) {
      // A page already connected (versus, seated in a room by a queue) hands every message to `hear`.
      this.socket = opts.via;
      this.view = { ...this.view, link: opts.via.link };
      return;
    }
    const socket = new LiveSocket({
      url: opts.url,
      connect: opts.connect,
      hello: () => ({ t: 'hello', v: LIVE_PROTOCOL_VERSION }),
      onMessage: (m) => this.hear(m),
      onState: (link) => this.update({ link }),
    });
    this.socket = this.own = socket;
    socket.open();
  }

  private now(): number {
    return this.opts.now?.() ?? performance.now();
  }

  get current(): RoomSessionView {
    return this.view;
  }

  private update(patch: Partial<RoomSessionView>): void {
    this.view = { ...this.view, ...patch };
    this.opts.onView(this.view);
  }

  private patchPlay(patch: Partial<RoomPlayView>): void {
    if (this.view.play) this.update({ play: { ...this.view.play, ...patch } });
  }

  private request(m: ClientMessage): void {
    this.wanted = m;
    this.update({ error: null, closed: null });
    this.socket.send(m);
  }

  create(room: NewRoom, handling: Handling): void {
    this.handling = handling;
    this.request({ t: 'rcreate', ...room, handling });
  }

  join(code: string, handling: Handling): void {
    this.handling = handling;
    this.update({ code });
    this.request({ t: 'rjoin', code, handling });
  }

  /**
   * A seat another connection of this page's player was given (the ranked 2v2 queue's): taken up
   * here with its token, as after a drop; the server sends the set (`rmatch`) and where it stands.
   */
  takeUp(code: string, matchId: string, token: string): void {
    this.token = token;
    this.resuming = true;
    this.update({ code });
    this.request({ t: 'resume', of: { kind: 'set', id: matchId }, token });
  }

  watch(code: string): void {
    this.update({ code });
    this.request({ t: 'watch', of: { kind: 'room', id: code } });
  }

  ready(ready: boolean): void {
    const l = this.view.lobby;
    if (l && l.you !== null) this.socket.send({ t: 'rready', code: l.code, ready, ...(l.terms === undefined ? {} : { terms: l.terms }) });
  }

  start(): void {
    const l = this.view.lobby;
    if (l && l.you === l.host) this.socket.send({ t: 'rstart', code: l.code });
  }

  /** The host's chair (the server re-checks it): empty a seat, hand the chair over, change rules or bots. */
  kick(seat: number): void {
    const l = this.view.lobby;
    if (l) this.socket.send({ t: 'rkick', code: l.code, seat });
  }

  handOver(seat: number): void {
    const l = this.view.lobby;
    if (l) this.socket.send({ t: 'rhost', code: l.code, seat });
  }

  setRules(mode: VersusMode, rules: RoomRules): void {
    const l = this.view.lobby;
    if (l) this.socket.send({ t: 'rrules', code: l.code, mode, rules });
  }

  setBot(seat: number, bot: BotSpec | null): void {
    const l = this.view.lobby;
    if (l) this.socket.send({ t: 'rbot', code: l.code, seat, bot });
  }

  leave(): void {
    const code = this.view.lobby?.code ?? this.view.play?.code;
    this.wanted = null;
    if (code && this.view.play?.seat === null) this.socket.send({ t: 'unwatch', of: { kind: 'room', id: code } });
    else if (code) this.socket.send({ t: 'leave', of: { kind: 'room', id: code } });
    this.fields.clear();
    this.update({ lobby: null, play: null, closed: 'You left the room.' });
  }

  /** From a set's result to the room's lobby, when the room went back to it. */
  backToLobby(): void {
    if (this.view.play?.state !== 'over') return;
    this.fields.clear();
    const closed = this.view.play.elsewhere ? 'This seat is played in another tab or window.' : 'This room closed after the set.';
    this.update({ play: null, closed: this.view.lobby ? null : closed });
  }

  /** Manual targeting: aim at `seat` (a tap on its field), if the rules and the seats allow it. */
  aim(seat: number): void {
    const p = this.view.play;
    if (!p || p.seat === null || p.rules.targeting !== 'manual' || p.state === 'over') return;
    if (!canAim(p.seat, seat, p.teams, p.out.map((o) => o !== null))) return;
    this.seat.aim(seat);
    const aims = p.aims.slice();
    aims[p.seat] = seat;
    this.patchPlay({ aims });
  }

  /** The target key: the next opponent after the current aim. */
  aimNext(): void {
    const p = this.view.play;
    if (!p || p.seat === null) return;
    const next = nextTarget(p.aims[p.seat] ?? p.seat, p.seat, p.teams, p.out.map((o) => o !== null));
    if (next !== null) this.aim(next);
  }

  /** Every frame while a game is on: what was played, every BATCH_INTERVAL_MS or at once when forced (a lock). */
  pump(now: number, force = false): void {
    const p = this.view.play;
    if (!p || p.seat === null || p.state === 'over' || p.state === 'between' || this.resuming || this.socket.link !== 'open' || !this.seat.game) return;
    if (!force && now - this.lastBatch < BATCH_INTERVAL_MS) return;
    this.lastBatch = now;
    for (const b of this.seat.resends(this.now())) this.socket.send({ t: 'inputs', stream: p.matchId, ...b });
    for (const b of this.seat.batches()) this.socket.send({ t: 'inputs', stream: p.matchId, ...b });
  }

  /** The countdown ended on the page's clock. */
  started(): void {
    if (this.view.play?.state === 'countdown') this.patchPlay({ state: 'playing' });
  }

  /** Riding a page's connection: its state as it changes (a session with its own socket follows it itself). */
  linked(link: LinkState): void {
    this.update({ link });
  }

  /** Every message of the connection (the session's own, or the page's that it rides). */
  hear(m: ServerMessage): void {
    if (isRoomServerMessage(m)) return this.receive(m);
    if (isTeamServerMessage(m)) return; // the ranked 2v2 queue's (lib/live/teams.ts): the versus page's queue control reads them
    switch (m.t) {
      case 'welcome':
        return this.welcome();
      case 'error':
        return this.refused(m);
      case 'deal':
      case 'ack':
        return this.seat.answer(m); // this seat's stream's, or passed by
      case 'started':
      case 'resumed':
      case 'status':
      case 'over':
      case 'watching':
      case 'frame':
      case 'ended':
      case 'pong':
      case 'queued':
      case 'unqueued':
      case 'room':
      case 'room_closed':
      case 'rematch_state':
      case 'rematch_over':
      case 'match':
      case 'vstart':
      case 'garbage':
      case 'vframe':
      case 'vgame':
      case 'vover':
      case 'vaway':
      case 'vresumed':
      case 'vwatching':
        return; // a solo game's, versus's, or the socket's own: a room's page plays none of them
      default:
        m satisfies never;
    }
  }

  /** A new connection: the seat taken up again, the room joined or watched again, or the request resent. */
  private welcome(): void {
    const p = this.view.play;
    const l = this.view.lobby;
    if (p && p.state !== 'over' && p.seat !== null && this.token) {
      this.resuming = true;
      this.socket.send({ t: 'resume', of: { kind: 'set', id: p.matchId }, token: this.token });
    } else if (p && p.state !== 'over' && p.seat === null) this.request({ t: 'watch', of: { kind: 'room', id: p.code } });
    else if (l && (!p || p.state === 'over')) {
      // (A set's result still on screen: the room went back to its lobby meanwhile, and its seat is kept there.)
      // A dropped connection freed its seat in a lobby: sit down again, or watch again.
      if (l.you !== null && this.handling) this.request({ t: 'rjoin', code: l.code, handling: this.handling });
      else if (l.you === null) this.request({ t: 'watch', of: { kind: 'room', id: l.code } });
    } else if (this.wanted) this.socket.send(this.wanted);
  }

  private refused(m: Extract<ServerMessage, { t: 'error' }>): void {
    const p = this.view.play;
    // A refused batch is never lost: those not acknowledged go again (pump), and the seat is not left a batch short until it is out for lag.
    const ofABatch = p && p.seat !== null && (m.gameId === p.matchId ? m.code === 'out_of_order' || m.code === 'ahead_of_clock' : m.code === 'rate_limited' && !m.gameId);
    if (ofABatch && (p.state === 'countdown' || p.state === 'playing') && this.seat.refused(this.now())) return;
    // Or another tab of this player took the seat up: it plays there, and this page asks for it no more.
    // A seat this page no longer plays (an earlier set's): nothing of this page's.
    if (m.code === 'seat_taken' && m.gameId !== p?.matchId) return;
    if (m.code === 'resume_failed' || m.code === 'seat_taken') {
      this.resuming = false;
      this.patchPlay({ state: 'over', ...(m.code === 'seat_taken' ? { elsewhere: true } : {}) });
    }
    // Said over the fields (RoomPlay), not as a red line above them besides (nor beside an earlier one).
    if (m.code === 'seat_taken') {
      this.wanted = null;
      return this.update({ error: null });
    }
    const asked = this.wanted;
    // A crowd arriving at the room (its catch-ups a second): the watch is asked again a little later, still wanted after a reconnect.
    if (m.code === 'rate_limited' && asked?.t === 'watch' && m.gameId === asked.of.id) {
      return this.retry.later(() => {
        if (this.wanted === asked) this.socket.send(asked);
      });
    }
    this.wanted = null;
    // A link to a room that is playing (or full) watches it instead.
    if (m.code === 'room_full' && asked?.t === 'rjoin') return this.watch(asked.code);
    this.update({ error: { code: m.code, message: m.message } });
  }

  /** A room's message (also for a page that was seated by a queue, not a lobby). */
  receive(m: RoomServerMessage): void {
    const p = this.view.play;
    switch (m.t) {
      case 'rroom': {
        const rules = roomRulesSchema(m.seats.length).safeParse(m.rules);
        if (!rules.success) return this.update({ error: { code: 'bad_message', message: `The room's rules could not be read: ${rules.error.issues[0]?.message}` } });
        this.wanted = null;
        const { t: _t, ...room } = m;
        void _t;
        return this.update({ lobby: { ...room, rules: rules.data }, code: m.code, error: null, closed: null });
      }
      case 'rclosed':
        this.wanted = null;
        return this.update({ lobby: null, closed: CLOSED[m.reason], ...(p && p.state !== 'over' ? { play: null } : {}) });
      case 'rmatch':
        return this.enter(m);
      case 'rbegin':
        if (p?.matchId !== m.matchId) return;
        this.seat.receive(m);
        this.fields.begin(m.game, this.seat.sequence);
        this.lastBatch = 0;
        this.patchPlay({ game: m.game, score: m.score, state: 'countdown', decided: null, meters: p.players.map(() => 0), out: p.players.map(() => null) });
        if (p.seat !== null) this.opts.onGame();
        return;
      case 'rgarbage':
        if (p?.matchId === m.matchId) this.seat.receive(m);
        return;
      case 'rresumed':
        if (p?.matchId !== m.matchId) return;
        this.resuming = false;
        this.seat.receive(m);
        this.pump(0, true);
        return;
      case 'rframes': {
        if (p?.matchId !== m.matchId || m.game !== p.game) return;
        // A catch-up replaces the fields held: after a resume they missed frames, or came from a host the set was taken up from.
        if (m.all) this.fields.begin(m.game, this.seat.sequence);
        this.fields.frames(m);
        const meters = p.meters.slice();
        const aims = p.aims.slice();
        const out = p.out.slice();
        for (const f of m.seats) {
          meters[f.seat] = f.meter;
          // A watcher's catch-up says who is out without its rko: a KO, as far as the frame tells.
          if (f.out && !out[f.seat]) out[f.seat] = 'topOut';
          // This seat's own aim is the page's choice until the server's catches up with it.
          if (f.seat !== p.seat || p.rules.targeting !== 'manual') aims[f.seat] = f.aim;
        }
        return this.patchPlay({ meters, aims, out });
      }
      case 'rko': {
        if (p?.matchId !== m.matchId || m.game !== p.game) return;
        this.seat.receive(m);
        const out = p.out.slice();
        out[m.seat] = m.why;
        return this.patchPlay({ out });
      }
      case 'rgame':
        if (p?.matchId !== m.matchId) return;
        this.seat.receive(m);
        this.fields.finish(m.tick + 1);
        return this.patchPlay({ score: m.score, state: 'between', decided: { winner: m.winner, reason: m.reason, placements: m.placements } });
      case 'rover':
        if (p?.matchId !== m.matchId) return;
        return this.patchPlay({ score: m.score, state: 'over', over: { winner: m.winner, stored: m.stored } });
      default:
        m satisfies never;
    }
  }

  /** A set begins (or is taken up again after a resume): the seat, its rules and every seat's field. */
  private enter(m: Msg<'rmatch'>): void {
    const rules = roomRulesSchema(m.players.length).safeParse(m.rules);
    if (!rules.success) return this.update({ error: { code: 'bad_message', message: `The room's rules could not be read: ${rules.error.issues[0]?.message}` } });
    this.wanted = null;
    if (m.resumeToken) this.token = m.resumeToken;
    if (this.view.play?.matchId === m.matchId) return; // sent again on a resume
    if (m.seat !== null) this.seat.enter(m, m.seat, rules.data);
    this.fields.enter({ mode: m.mode, rules: rules.data, handling: m.handling, rulesVersion: m.rulesVersion, own: m.seat });
    const n = m.players.length;
    this.update({
      code: m.code,
      // The lobby comes back (rroom) when the room returns to it after the set.
      lobby: null,
      error: null,
      closed: null,
      play: {
        matchId: m.matchId, code: m.code, mode: m.mode, seat: m.seat, players: m.players, rules: rules.data, teams: teamsOf(rules.data, n), game: 0, state: 'countdown',
        score: [], meters: Array.from({ length: n }, () => 0), aims: Array.from({ length: n }, (_, s) => s), out: Array.from({ length: n }, () => null), decided: null, over: null,
      },
    });
  }

  dispose(): void {
    this.retry.cancel();
    this.own?.close();
  }
}
