import { isRoomServerMessage } from '@/lib/live/rooms';
import { isTeamServerMessage } from '@/lib/live/teams';
import type { GameEndReason, Handling, PieceType, VersusMode } from '@/lib/engine';
import { BATCH_INTERVAL_MS, LIVE_PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';
import type { RatingChange, RematchEnd, RoomView, Seat } from '@/lib/live/versus';
import type { BotSpec } from '@/lib/bot/spec';
import { SpectatorFeed } from '@/lib/client/live/spectator';
import { LiveSocket, type LinkState, type SocketFactory } from '@/lib/client/live/socket';
import { VersusSeatState } from '@/lib/client/live/versus-seat';

/** Where the player is before a match: nowhere yet, waiting for an opponent, or in a private room. */
export type LobbyView =
  | { kind: 'idle' }
  | { kind: 'joining'; code: string }
  | { kind: 'queued'; mode: VersusMode; ranked: boolean; since: number; waiting: number }
  | { kind: 'room'; room: RoomView }
  | { kind: 'closed'; code: string; message: string };

type MatchMessage = Extract<ServerMessage, { t: 'match' }>;

/** After a quick match: the offer to play again while it stands (`until`, performance.now()), then how it ended. */
export type RematchView = { kind: 'open'; wants: [boolean, boolean]; until: number } | { kind: 'over'; reason: RematchEnd; message: string | null };

export type MatchView = Pick<MatchMessage, 'matchId' | 'seat' | 'players' | 'mode' | 'firstTo' | 'ranked'> & {
  score: [number, number];
  /** The game of the set being played (0, 1, …). */
  game: number;
  /** countdown and playing follow the current game's clock; between is the pause after a game. */
  state: 'countdown' | 'playing' | 'between' | 'over';
  /** The last game decided: who won it and how. */
  decided: { winner: Seat | null; reason: GameEndReason } | null;
  /** A player whose connection dropped, and when their window ends (performance.now()). */
  away: { seat: Seat; until: number } | null;
  /** Rows waiting in the opponent's meter (from their frames). */
  opponentMeter: number;
  over: { winner: Seat; score: [number, number]; reason: 'games' | 'forfeit'; ranked: boolean; stored: boolean; ratings?: [RatingChange, RatingChange]; noContest?: boolean; pending?: boolean } | null;
  /** Null for a room's match (it goes back to the room) and until the server offers one. */
  rematch: RematchView | null;
  /** Over for this page because another tab or window of the player took the seat up (seat_taken). */
  elsewhere?: boolean;
};

export type VersusView = {
  link: LinkState;
  lobby: LobbyView;
  match: MatchView | null;
  /** The last refusal the server gave, for the page to show. */
  error: { code: string; message: string } | null;
};

export type SeatSetup = { handling: Handling; nextCount: number };

/**
 * The browser's side of versus, without DOM: one live connection, the lobby (quick match, private
 * rooms), the seat in a match (VersusSeatState: dealt pieces, and garbage at the server's ticks)
 * and the opponent's field re-run from their frames (SpectatorFeed). A dropped connection dials
 * again and takes the seat up with the match's resume token; the seat then carries on from the
 * server's tick. The page's controller drives the seat's game and calls `pump` every frame.
 * docs/decisions/0017-versus-live.md.
 */
export class VersusSession {
  readonly seat = new VersusSeatState();
  /** The opponent's current game, re-run from their stream (null before a game starts). */
  opponent: SpectatorFeed | null = null;
  private readonly socket: LiveSocket;
  private view: VersusView = { link: 'down', lobby: { kind: 'idle' }, match: null, error: null };
  private token = '';
  /** Both seats' handling (the opponent's field is re-run with theirs). */
  private handlings: [Handling, Handling] = [this.seat.handling, this.seat.handling];
  private lastBatch = 0;
  /** What to send again after a reconnect: the lobby request still unanswered. */
  private wanted: ClientMessage | null = null;
  /** The setup sent with the last lobby request (a room joined again after a reconnect takes it). */
  private setup: SeatSetup | null = null;
  /** The bot match asked for last: what "play the bot again" asks for once more. */
  private sparring: { mode: VersusMode; firstTo: number; bot: BotSpec } | null = null;
  /**
   * The room this page left (room_leave), and whether the leave went out (not while the link was
   * down: it goes on `welcome`): what the server says of that room is not the page's any more.
   */
  private left: { code: string; sent: boolean } | null = null;
  /** A resume is on its way: nothing is sent until vresumed says where the server's copy stands. */
  private resuming = false;

  constructor(
    private readonly opts: {
      url: string;
      connect?: SocketFactory;
      onView: (view: VersusView) => void;
      /** A new game of the set starts (its countdown begins): the page makes a runner for `seat.game`. */
      onGame: () => void;
      now?: () => number;
    },
  ) {
    this.socket = new LiveSocket({
      url: opts.url,
      connect: opts.connect,
      hello: () => ({ t: 'hello', v: LIVE_PROTOCOL_VERSION }),
      onMessage: (m) => this.onMessage(m),
      onState: (link) => this.update({ link }),
    });
    this.seat.onReset = () => {};
    this.socket.open();
  }

  private now(): number {
    return this.opts.now?.() ?? performance.now();
  }

  get current(): VersusView {
    return this.view;
  }

  private update(patch: Partial<VersusView>): void {
    this.view = { ...this.view, ...patch };
    this.opts.onView(this.view);
  }

  private patchMatch(patch: Partial<MatchView>): void {
    if (this.view.match) this.update({ match: { ...this.view.match, ...patch } });
  }

  private request(message: ClientMessage): void {
    this.wanted = message;
    this.left = null;
    this.update({ error: null });
    this.socket.send(message);
  }

  queue(mode: VersusMode, ranked: boolean, setup: SeatSetup): void {
    this.setup = setup;
    this.request({ t: 'queue', mode, ranked, ...setup });
  }

  /** An unranked match against the server's sparring bot, at once (lib/bot). */
  spar(mode: VersusMode, firstTo: number, bot: BotSpec, setup: SeatSetup): void {
    this.setup = setup;
    this.sparring = { mode, firstTo, bot };
    this.request({ t: 'spar', mode, firstTo, bot, ...setup });
  }

  /** After a match against the bot: the same again, from its result. */
  sparAgain(): void {
    const s = this.sparring;
    if (!s || this.view.match?.state !== 'over') return;
    if (!this.setup) return;
    this.backToLobby();
    this.spar(s.mode, s.firstTo, s.bot, this.setup);
  }

  /** The bot asked for last, while its match (or the next) is what this page plays. */
  get sparred(): boolean {
    return this.sparring !== null && this.view.match?.players?.some((p) => p.bot) === true;
  }

  unqueue(): void {
    this.wanted = null;
    this.socket.send({ t: 'unqueue' });
    this.update({ lobby: { kind: 'idle' } });
  }

  createRoom(mode: VersusMode, firstTo: number, setup: SeatSetup): void {
    this.setup = setup;
    this.request({ t: 'room_create', mode, firstTo, ...setup });
  }

  joinRoom(code: string, setup: SeatSetup): void {
    this.setup = setup;
    this.update({ lobby: { kind: 'joining', code } });
    this.request({ t: 'room_join', code, ...setup });
  }

  setRoom(mode: VersusMode, firstTo: number): void {
    const l = this.view.lobby;
    if (l.kind === 'room') this.socket.send({ t: 'room_set', code: l.room.code, mode, firstTo });
  }

  ready(ready: boolean): void {
    const l = this.view.lobby;
    if (l.kind === 'room') this.socket.send({ t: 'ready', code: l.room.code, ready });
  }

  /**
   * Gives up this page's seat in its room on purpose: its maker's closes the room at once (a
   * dropped connection's is kept a while, and its guest would wait on it), a guest's is free again.
   */
  leaveRoom(): void {
    const l = this.view.lobby;
    if (l.kind !== 'room') return;
    this.wanted = null;
    this.left = { code: l.room.code, sent: this.socket.send({ t: 'room_leave', code: l.room.code }) };
    this.update({ lobby: { kind: 'idle' } });
  }

  /** From a finished match's result back to the lobby (the room it was played from, if it opened again). */
  backToLobby(): void {
    if (this.view.match?.state !== 'over') return;
    this.opponent = null;
    this.update({ match: null });
  }

  /** After a quick match: asks for (or accepts) a rematch, or declines it. */
  rematch(want: boolean): void {
    const m = this.view.match;
    if (m?.state === 'over' && m.rematch?.kind === 'open') this.socket.send({ t: 'rematch', matchId: m.matchId, want });
  }

  /** Gives the match up: it counts as lost (ranked or not). */
  leave(): void {
    const m = this.view.match;
    if (m && m.state !== 'over') this.socket.send({ t: 'leave', of: { kind: 'match', id: m.matchId } });
  }

  private onMessage(m: ServerMessage): void {
    const match = this.view.match;
    if (isRoomServerMessage(m)) return; // a live room's (lib/live/rooms.ts): no page plays rooms yet
    if (isTeamServerMessage(m)) return; // the ranked 2v2 queue's (lib/live/teams.ts): the versus page's queue control reads them
    switch (m.t) {
      case 'welcome': {
        // Back after a drop: the seat again, the room (its maker's seat is kept for it a while, a
        // guest's is taken again if still free), or the lobby request that was not answered.
        const lobby = this.view.lobby;
        if (match && match.state !== 'over') {
          this.resuming = true;
          this.socket.send({ t: 'resume', of: { kind: 'match', id: match.matchId }, token: this.token });
        } else if (lobby.kind === 'room' && this.setup) {
          // Its room in the lobby, or opened again after its match while the result is shown.
          this.request({ t: 'room_join', code: lobby.room.code, ...this.setup });
        } else if (this.wanted) this.socket.send(this.wanted);
        // Left while the link was down: the server kept the seat for this page, which gives it up now.
        else if (this.left && !this.left.sent) this.left.sent = this.socket.send({ t: 'room_leave', code: this.left.code });
        // The offer belonged to the dropped connection: the server ended it.
        if (match?.rematch?.kind === 'open') this.patchMatch({ rematch: { kind: 'over', reason: 'expired', message: 'Your connection dropped, so the rematch offer ended.' } });
        return;
      }
      case 'queued':
        this.update({ lobby: { kind: 'queued', mode: m.mode, ranked: m.ranked, since: this.now(), waiting: m.waiting } });
        return;
      case 'unqueued':
        // The server took the entry out (the page's own cancel is already idle): why came just before, as an error.
        this.wanted = null;
        if (this.view.lobby.kind === 'queued') this.update({ lobby: { kind: 'idle' } });
        return;
      case 'room':
        // A leave that crossed the room's start (both were ready): the match was this page's, and so is the room it reopens.
        if (m.room.code === this.left?.code && !match) return;
        this.left = null;
        this.wanted = null;
        this.update({ lobby: { kind: 'room', room: m.room } });
        return;
      case 'room_closed':
        if (m.code === this.left?.code) return;
        if (m.reason !== 'started') this.update({ lobby: { kind: 'closed', code: m.code, message: m.reason === 'left' ? 'The player who made this room left it.' : 'This room expired.' } });
        return;
      case 'match':
        this.wanted = null;
        this.token = m.resumeToken;
        this.handlings = m.handling;
        this.seat.receive(m);
        if (match?.matchId === m.matchId) return; // sent again on a resume
        this.opponent = null;
        this.update({
          lobby: { kind: 'idle' },
          error: null,
          match: {
            matchId: m.matchId, seat: m.seat, players: m.players, mode: m.mode, firstTo: m.firstTo, ranked: m.ranked,
            score: [0, 0], game: 0, state: 'countdown', decided: null, away: null, opponentMeter: 0, over: null, rematch: null,
          },
        });
        return;
      case 'vstart':
        if (match?.matchId !== m.matchId) return;
        this.seat.receive(m);
        this.startOpponent(m.pieces);
        this.lastBatch = 0;
        this.patchMatch({ game: m.game, score: m.score, state: 'countdown', opponentMeter: 0 });
        this.opts.onGame();
        return;
      case 'garbage':
        if (match?.matchId === m.matchId) this.seat.receive(m);
        return;
      case 'deal':
      case 'ack':
        return this.seat.answer(m); // this seat's stream's, or passed by
      case 'vframe':
        if (match?.matchId !== m.matchId || m.game !== this.seat.gameIndex || m.seat === match.seat) return;
        this.opponent?.push({ ...m, paused: false });
        this.patchMatch({ opponentMeter: m.meter });
        return;
      case 'vgame':
        if (match?.matchId !== m.matchId) return;
        this.seat.receive(m);
        // The rest of the opponent's game at once, to where it was decided: the next one replaces it.
        this.opponent?.push({ from: m.from, pieces: m.pieces, events: [], tick: 0 });
        this.opponent?.runTo(m.ticks[match.seat === 0 ? 1 : 0]);
        this.patchMatch({ score: m.score, state: 'between', decided: { winner: m.winner, reason: m.reason } });
        return;
      case 'vover':
        if (match?.matchId !== m.matchId) return;
        this.seat.receive(m);
        this.patchMatch({ score: m.score, state: 'over', away: null, over: { winner: m.winner, score: m.score, reason: m.reason, ranked: m.ranked, stored: m.stored, ratings: m.ratings, noContest: m.noContest, pending: m.pending } });
        return;
      case 'rematch_state':
        if (match?.matchId === m.matchId) this.patchMatch({ rematch: { kind: 'open', wants: m.wants, until: this.now() + m.expiresInMs } });
        return;
      case 'rematch_over':
        if (match?.matchId === m.matchId) this.patchMatch({ rematch: { kind: 'over', reason: m.reason, message: m.message ?? null } });
        return;
      case 'vaway':
        if (match?.matchId === m.matchId) this.patchMatch({ away: m.back ? null : { seat: m.seat, until: this.now() + m.windowMs } });
        return;
      case 'vresumed':
        if (match?.matchId !== m.matchId) return;
        this.resuming = false;
        this.seat.receive(m);
        this.patchMatch({ score: m.score, game: m.game });
        this.pump(0, true);
        return;
      case 'vwatching': {
        // After a resume: the opponent's game so far, from its first tick.
        if (match?.matchId !== m.matchId || m.game !== this.seat.gameIndex) return;
        const them = m.seats[match.seat === 0 ? 1 : 0];
        this.opponent = new SpectatorFeed({ mode: m.mode, rulesVersion: m.rulesVersion, handling: m.handling[match.seat === 0 ? 1 : 0], nextCount: m.nextCount, ...them, paused: false });
        this.feedOwnPieces();
        return;
      }
      case 'error':
        // A refused batch is never lost: those not acknowledged go again (pump).
        if (match && (m.gameId === match.matchId ? m.code === 'out_of_order' : m.code === 'rate_limited' && !m.gameId) && (match.state === 'countdown' || match.state === 'playing') && this.seat.refused(this.now())) return;
        // The match ended while this seat was away (its window ran out, or the other player's game
        // decided it): the result is the stored match's, not something to guess here. Or another tab
        // of this player took the seat: it plays there, and this page asks for it no more.
        // A seat this page no longer plays (an earlier match's): nothing of this page's.
        if (m.code === 'seat_taken' && m.gameId !== match?.matchId) return;
        if (match && (m.code === 'resume_failed' || m.code === 'seat_taken')) {
          this.resuming = false;
          this.patchMatch({ state: 'over', away: null, ...(m.code === 'seat_taken' ? { elsewhere: true } : {}) });
        }
        this.wanted = null;
        // The room left was gone already (its match started, or it closed): the page is in the lobby, as it chose.
        if (m.code === 'unknown_room' && this.left && this.view.lobby.kind === 'idle') return;
        // A room that is not there (or full) is said by the closed room in the lobby, once.
        if (m.code === 'unknown_room' || m.code === 'room_full') return this.update({ lobby: { kind: 'closed', code: this.roomCode(), message: m.message }, error: null });
        this.update({ error: { code: m.code, message: m.message } });
        return;
      case 'started':
      case 'resumed':
      case 'status':
      case 'over':
      case 'watching':
      case 'frame':
      case 'ended':
      case 'pong':
        return; // a solo game's, or the socket's own
      default:
        m satisfies never;
    }
  }

  private roomCode(): string {
    const l = this.view.lobby;
    return l.kind === 'joining' ? l.code : l.kind === 'room' ? l.room.code : '';
  }

  /** A new game of the set: the opponent's field starts from the same pieces as this seat's (its garbage comes with its frames). */
  private startOpponent(pieces: readonly PieceType[]): void {
    const match = this.view.match!;
    const them = match.seat === 0 ? 1 : 0;
    this.opponent = new SpectatorFeed({
      mode: match.mode, rulesVersion: this.seat.rulesVersion, handling: this.handlings[them], nextCount: this.seat.nextCount, pieces: pieces.slice(0, 1), events: [], tick: 0, paused: false,
    });
    this.feedOwnPieces();
  }

  /** Both seats play one piece sequence per game: this seat's pieces serve the opponent's field too. */
  private feedOwnPieces(): void {
    this.opponent?.push({ from: 0, pieces: this.seat.sequence, events: [], tick: 0 });
  }

  /**
   * Called every frame while a game is on: sends what was played every BATCH_INTERVAL_MS, or at
   * once when forced (a piece locked: the next deal and the opponent's garbage depend on it).
   */
  pump(now: number, force = false): void {
    const match = this.view.match;
    // Between games (and after the last) there is nothing to send: the decided game is closed.
    if (!match || match.state === 'over' || match.state === 'between' || this.resuming || this.socket.link !== 'open' || !this.seat.game) return;
    if (!force && now - this.lastBatch < BATCH_INTERVAL_MS) return;
    this.lastBatch = now;
    for (const b of this.seat.resends(this.now())) this.socket.send({ t: 'inputs', stream: match.matchId, ...b });
    for (const b of this.seat.batches()) this.socket.send({ t: 'inputs', stream: match.matchId, ...b });
    this.feedOwnPieces();
  }

  /** The game's countdown ended (the page's clock): the view says playing. */
  started(): void {
    if (this.view.match?.state === 'countdown') this.patchMatch({ state: 'playing' });
  }

  dispose(): void {
    this.socket.close();
  }
}
