import { isRoomServerMessage } from '@/lib/live/rooms';
import { isTeamServerMessage } from '@/lib/live/teams';
import { createDealtGame, type DealtGame, type Handling, type Mode, type PieceType } from '@/lib/engine';
import { HUMAN_INPUT } from '@/lib/input-limits';
import { PAUSE_BUDGETS } from '@/lib/live/pauses';
import { BATCH_INTERVAL_MS, LIVE_PROTOCOL_VERSION, RESEND_AFTER_MS, type ClientMessage, type ServerMessage, type UnrankedReason } from '@/lib/live/protocol';
import { InputBatches } from '@/lib/client/live/batches';
import { PacedSends } from '@/lib/client/live/paced-sends';
import { LiveSocket, type LinkState, type SocketFactory } from '@/lib/client/live/socket';

/** What the play page shows about the live channel while a ranked game is on. */
export type LiveView = {
  link: LinkState;
  /** The game's mode once it started: its pause budget (lib/live/pauses.ts). */
  mode: Mode | null;
  ranked: boolean;
  /** `elsewhere`: this page's own, not the server's: another tab or window of the player took the game up (seat_taken). */
  reason?: UnrankedReason | 'elsewhere';
  pauses: number;
  pausesLeft: number | null;
  spectators: number;
  /** The game is waiting for pieces (the clock stands still). */
  waiting: boolean;
};

export type GameOver = Extract<ServerMessage, { t: 'over' }>;
type Started = Extract<ServerMessage, { t: 'started' }>;
/** What the page says of its game in order: its batches, and pauses between them (the server refuses a batch that reaches it paused). */
type GameMessage = Extract<ClientMessage, { t: 'inputs' | 'pause' | 'unpause' }>;
const gameOf = (m: GameMessage) => (m.t === 'inputs' ? m.stream : m.gameId);
type Current = {
  id: string;
  token: string;
  game: DealtGame;
  batches: InputBatches;
  /** Every piece dealt so far, in order (the page exposes them; tests plan moves from them). */
  sequence: PieceType[];
  /** Dig: every hole column dealt so far, by row (the page exposes them too). */
  holes: number[];
  over: GameOver | null;
  onOver: ((o: GameOver | null) => void) | null;
  setup: { handling: Handling; nextCount: number };
  /** The highest batch the server acknowledged: a resume that knows less lost the server's copy. */
  acked: number;
  /** The tick the last resume declared: a server taking the game up catches up to exactly it. */
  helloTick: number;
  /** Another tab or window took this game up (seat_taken): it plays there, and this page sends it nothing more. */
  elsewhere: boolean;
  /** Whether the page has the game paused, and has paused it at all: said again after a resume (a pause or unpause may have been lost with the link). */
  paused: boolean;
  pausedOnce: boolean;
  /** A pause went out and no unpause after it: the server may hold the game paused, and refuses a batch until it hears unpause. */
  pauseSent: boolean;
};

/**
 * Errors naming the last game after which the server takes no more of it. Not among them: those
 * it means as passing (out_of_order, rate_limited, server_error while it shuts down: the batches
 * go again), nor desync (said after the batch was acknowledged).
 */
const LAST_GAME_GONE: ReadonlySet<string> = new Set(['game_over', 'unknown_game', 'not_your_game', 'bad_inputs', 'ahead_of_clock', 'resume_failed', 'setup_mismatch', 'banned', 'seat_taken']);

/** How long a game request may wait for the server (connecting included) before the page says so. */
const START_TIMEOUT_MS = 10_000;
/** A request waiting behind the last game's batches may wait this many timeouts more while they go (a resend that loops must not hold it for good). */
const START_WAITS_AT_MOST = 12;

const REASONS: Record<NonNullable<LiveView['reason']>, string> = {
  paused: 'paused, and this mode allows no pauses',
  pause_budget: 'paused too often or too long',
  too_slow: 'the game did not keep pace',
  disconnected: 'the connection was lost for too long',
  elsewhere: 'it went on in another tab or window',
};
export const unrankedReason = (r: LiveView['reason']) => (r ? REASONS[r] : 'the server could not pace it');

/**
 * What a ranked game's badge says about pausing, from the start: the player learns what a pause
 * costs before taking one. Null once the game is unranked (the badge says why) or before it starts.
 * `redeal`: not begun, a pause now deals a new game and costs nothing (PlayController.redeals).
 */
export function pauseNote(view: Pick<LiveView, 'mode' | 'ranked' | 'pausesLeft'>, redeal = false): string | null {
  if (!view.ranked || view.mode === null) return null;
  if (redeal) return 'Not begun yet: a pause deals a new game';
  const budget = PAUSE_BUDGETS[view.mode];
  const left = view.pausesLeft ?? budget.pauses;
  if (left === 0) return 'Pausing makes this game unranked';
  return `${left === 1 ? '1 pause' : `${left} pauses`} left, up to ${budget.eachMs / 1000} s each`;
}

/**
 * The player's side of the live channel: one socket for the page, one ranked game at a time. It
 * asks for a game and gets its first pieces (never the seed), deals the pieces that follow into
 * the game, streams the inputs in batches, reports pauses, takes the game up again after a
 * dropped connection, and at the end gets the seed back to submit the replay as before.
 */
export class LiveSession {
  private readonly socket: LiveSocket;
  private current: Current | null = null;
  /**
   * The last game, ended here, while the next one waits for the server to hold every batch of it (startIfAsked):
   * its refused batches go again, and on a new link it is taken up again if the server lacks any,
   * so its end, if it ended here, arrives and is stored. Let go once the start is sent (the server
   * acknowledged all of it), or its end, another tab's take-up or a refusal of it came.
   */
  private leaving: Current | null = null;
  /** Messages let out of the outbox so far: a start waiting behind them is not late while they go. */
  private letOut = 0;
  /** The game asked for and not yet started; `sent` on this link (a new link asks again). */
  private pendingStart: { message: ClientMessage; settle: (r: StartResult) => void; sent: boolean; sentAt: number | null } | null = null;
  /**
   * The game whose resume is on its way: no batch and no start goes until it is answered (`resumed`,
   * its `over`, a refusal naming it). A start sent meanwhile could be dealt while the server is
   * still taking the old game up, which then took the new one's seat.
   */
  private resuming: string | null = null;
  private lastBatch = 0;
  /** When the batches the server refused go again, once its message budget has refilled; null if none was. */
  private resendAt: number | null = null;
  /**
   * Games' batches and pauses on their way out, at most PAGE_SENDS_PER_SECOND a second (a long
   * game's whole log is hundreds). A game's stay when the next is asked for: its end must arrive.
   */
  private readonly outbox = new PacedSends<GameMessage>();
  private outboxTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly now: () => number;
  private view: LiveView = { link: 'down', mode: null, ranked: true, pauses: 0, pausesLeft: null, spectators: 0, waiting: false };

  /** `now`: the clock (ms) that paces sends and resends; the page's own unless a test gives one. */
  constructor(opts: { url: string; connect?: SocketFactory; onView: (view: LiveView) => void; now?: () => number }) {
    this.onView = opts.onView;
    this.now = opts.now ?? (() => performance.now());
    this.socket = new LiveSocket({
      url: opts.url,
      connect: opts.connect,
      hello: () => {
        // The last game is taken up only if the server may lack some of it (a batch not acknowledged,
        // or play not cut while the link was down): one it holds all of is not taken back from
        // another tab that took it up meanwhile.
        const l = this.leaving;
        const c = this.current ?? (l && (l.batches.pending > 0 || l.batches.uncut(l.game.inputs, l.game.snapshot().tick)) ? l : null);
        this.resuming = null;
        this.resendAt = null;
        // A new link: what the server lacks is worked out again from its answer to the resume.
        this.outbox.clear();
        if (this.pendingStart) this.pendingStart.sent = false;
        if (!c || c.over || c.elsewhere) return { t: 'hello', v: LIVE_PROTOCOL_VERSION };
        const setup = { ...c.setup, tick: c.game.snapshot().tick };
        c.helloTick = setup.tick;
        this.resuming = c.id;
        return [{ t: 'hello', v: LIVE_PROTOCOL_VERSION }, { t: 'resume', of: { kind: 'game', id: c.id }, token: c.token, setup }];
      },
      onMessage: (m) => this.onMessage(m),
      onState: (link) => this.update({ link }),
    });
  }

  private readonly onView: (view: LiveView) => void;

  private update(patch: Partial<LiveView>): void {
    this.view = { ...this.view, ...patch };
    this.onView(this.view);
  }

  setWaiting(waiting: boolean): void {
    if (waiting !== this.view.waiting) this.update({ waiting });
  }

  /** Asks for a ranked game: its dealt game to play, or why there is none. `countdown`: the page counts down before its first tick. */
  start(req: { mode: Mode; handling: Handling; nextCount: number; countdown?: boolean }): Promise<StartResult> {
    // Only a game that ended here holds the next one back: its end must reach the server, play not
    // cut yet included (the page pumps only while playing). One left mid-game is given up at the
    // start: what of it waits to go would only hold a restart up.
    const last = this.current;
    if (last?.game.over) this.pump(0, true);
    else if (last) this.outbox.remove((q) => gameOf(q) === last.id);
    if (last) this.leaving = last.over || last.elsewhere || !last.game.over ? null : last;
    this.current = null;
    this.pendingStart?.settle({ ok: false, message: 'Another game was asked for.' });
    this.update({ mode: null, ranked: true, reason: undefined, pauses: 0, pausesLeft: null, spectators: 0, waiting: false });
    const message: ClientMessage = { t: 'start', mode: req.mode, handling: req.handling, nextCount: req.nextCount, ...(req.countdown ? { countdown: true } : {}) };
    return new Promise<StartResult>((resolve) => {
      let timer: ReturnType<typeof setTimeout>;
      let seen = this.letOut;
      let waited = 0;
      const late = () => {
        const p = this.pendingStart?.settle === settle ? this.pendingStart : null;
        if (p && !p.sent && ++waited <= START_WAITS_AT_MOST) {
          // Nothing went for as long, the last game's batches unacknowledged on an open link: their
          // answer was lost (a notice past the budget, an error naming nothing), so they go again.
          const l = this.leaving;
          if (this.letOut === seen && l && l.batches.pending > 0 && this.socket.link === 'open' && this.resuming === null) {
            this.resendAt = this.now();
            this.flush();
          }
          // Still letting the last game's batches out: the page paces itself (a long backlog is more
          // than START_TIMEOUT_MS of it), the server is not late. Late once nothing went for as long.
          if (this.letOut !== seen) {
            seen = this.letOut;
            timer = setTimeout(late, START_TIMEOUT_MS);
            return;
          }
        }
        // Sent only lately, behind them: the server has its whole time to answer.
        const since = p && p.sentAt !== null ? this.now() - p.sentAt : Number.POSITIVE_INFINITY;
        if (since < START_TIMEOUT_MS) {
          timer = setTimeout(late, START_TIMEOUT_MS - since);
          return;
        }
        // Its batches went again for minutes, refused every time: they hold no later start (let go
        // after this one is settled, which it then does not send). A link that is down, or taking the
        // game up again, keeps it.
        const stuck = p && !p.sent && waited > START_WAITS_AT_MOST && this.socket.link === 'open' && this.resuming === null ? this.leaving : null;
        settle({ ok: false, message: 'The live game server did not answer. Check your connection, or practise offline.' });
        this.letGo(stuck, null);
      };
      timer = setTimeout(late, START_TIMEOUT_MS);
      const settle = (r: StartResult) => {
        clearTimeout(timer);
        if (this.pendingStart?.settle === settle) this.pendingStart = null;
        resolve(r);
      };
      this.pendingStart = { message, settle, sent: false, sentAt: null };
      this.socket.open();
      this.flush();
    });
  }

  private onStarted(m: Started): void {
    const p = this.pendingStart;
    if (!p) return;
    let game: DealtGame;
    try {
      game = createDealtGame(
        { mode: m.mode, handling: m.handling, nextCount: m.nextCount, rulesVersion: m.rulesVersion, maxInputsPerTick: HUMAN_INPUT.maxEventsPerTick, ...(m.holes ? { holes: m.holes } : {}) },
        m.pieces,
      );
    } catch {
      p.settle({ ok: false, message: 'The server sent a malformed game.' });
      return;
    }
    this.current = { id: m.gameId, token: m.resumeToken, game, batches: new InputBatches(m.gameId), sequence: [...m.pieces], holes: [...(m.holes ?? [])], over: null, onOver: null,
      setup: { handling: m.handling, nextCount: m.nextCount }, acked: 0, helloTick: 0, elsewhere: false, paused: false, pausedOnce: false, pauseSent: false,
    };
    this.leaving = null;
    this.lastBatch = 0;
    this.resendAt = null;
    this.update({ mode: m.mode, pausesLeft: PAUSE_BUDGETS[m.mode].pauses });
    p.settle({ ok: true, gameId: m.gameId, game });
  }

  private onMessage(m: ServerMessage): void {
    const c = this.current;
    if (isRoomServerMessage(m)) return; // a live room's (lib/live/rooms.ts): no page plays rooms yet
    if (isTeamServerMessage(m)) return; // the ranked 2v2 queue's (lib/live/teams.ts): the versus page's queue control reads them
    switch (m.t) {
      case 'welcome':
        return this.flush();
      case 'resumed': {
        if (m.gameId !== this.resuming) return; // not the resume this page waits on
        this.resuming = null;
        const g = this.game(m.gameId);
        if (g && !g.over && !g.elsewhere) this.resumed(g, m);
        return this.flush();
      }
      case 'started':
        this.onStarted(m);
        return;
      case 'deal': {
        const g = this.game(m.stream);
        if (g) this.dealInto(g, m.from, m.pieces, m.holes);
        return;
      }
      case 'ack': {
        const g = this.game(m.stream);
        if (!g) return;
        g.batches.ack(m.seq);
        g.acked = Math.max(g.acked, m.seq);
        if (g === this.leaving) this.flush(); // the start may go once the last is held
        return;
      }
      case 'status':
        if (c?.id === m.gameId) this.update({ ranked: m.ranked, reason: m.reason, pauses: m.pauses, pausesLeft: m.pausesLeft, spectators: m.spectators });
        return;
      case 'over': {
        const answered = m.gameId === this.resuming;
        if (answered) this.resuming = null;
        if (m.gameId === this.leaving?.id) return this.letGo(this.leaving, m);
        if (c?.id === m.gameId) {
          c.over = m;
          this.outbox.remove((q) => gameOf(q) === c.id);
          this.update({ ranked: m.ranked, reason: m.reason });
          c.onOver?.(m);
        }
        if (answered) this.flush();
        return;
      }
      case 'error': {
        const l = this.leaving;
        if (l && m.gameId === l.id && LAST_GAME_GONE.has(m.code)) {
          if (m.gameId === this.resuming) this.resuming = null;
          return this.letGo(l, m.code === 'seat_taken' ? 'elsewhere' : null);
        }
        if (c && m.gameId === c.id && m.code === 'seat_taken') {
          c.elsewhere = true;
          this.outbox.remove((q) => gameOf(q) === c.id);
          c.onOver?.(null);
          this.update({ ranked: false, reason: 'elsewhere' });
          return;
        }
        // A refused batch is never lost: everything not yet acknowledged goes again (the server
        // acknowledges again what it already holds), after a pause so the budget refills.
        const g = c ?? this.leaving;
        if (g && !g.over && g.batches.pending > 0 && ((m.code === 'out_of_order' && m.gameId === g.id) || (m.code === 'rate_limited' && !m.gameId))) {
          this.resendAt ??= this.now() + RESEND_AFTER_MS;
          return this.flush();
        }
        // The resume failed on the server (a database or Redis error answers server_error, naming
        // nothing): the page dials again and asks again, rather than wait on a link that answers pings.
        if (this.resuming !== null && m.code === 'server_error' && !m.gameId) return this.socket.dialAgain();
        if (m.gameId !== undefined && m.gameId === this.resuming && (m.code === 'resume_failed' || m.code === 'setup_mismatch' || m.code === 'banned')) {
          this.resuming = null;
          if (c?.id === m.gameId) this.update({ ranked: false, reason: 'disconnected' });
          return this.flush();
        }
        if (this.pendingStart && !m.gameId) this.pendingStart.settle({ ok: false, message: m.message });
        else if (c && m.gameId === c.id && (m.code === 'resume_failed' || m.code === 'setup_mismatch' || m.code === 'banned')) this.update({ ranked: false, reason: 'disconnected' });
        return;
      }
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
        return; // another session's (a spectator's, a match's), or the socket's own
      default:
        m satisfies never;
    }
  }

  /**
   * The server holds the game again: it is sent what it lacks (the whole log, if it took the game
   * up from its ticket), then what was played while the connection was down, all before the page
   * says again whether it is paused (send).
   */
  private resumed(c: Current, m: Extract<ServerMessage, { t: 'resumed' }>): void {
    this.dealInto(c, m.from, m.pieces, m.holes && { from: 0, columns: m.holes });
    this.resendAt = null;
    let lacked: GameMessage[];
    if (m.lastSeq < c.acked) {
      // The server took the game up from its ticket (it restarted): the whole log again.
      c.batches = new InputBatches(c.id);
      c.acked = 0;
      lacked = c.batches.cut(c.game.inputs.filter((e) => e.tick < c.helloTick), c.helloTick);
    } else lacked = c.batches.after(m.lastSeq);
    const since = c.batches.cut(c.game.inputs, c.game.snapshot().tick, c.game.playHash());
    this.send(c, [...lacked, ...since], true);
  }

  /**
   * A start asked for while a resume was on its way goes once that is answered; one asked for while
   * the last game's batches wait their turn goes after them (the server gives a running game up at
   * a start, and its end would never arrive).
   */
  private startIfAsked(): void {
    const p = this.pendingStart;
    const l = this.leaving;
    if (!p || p.sent || this.outbox.waitMs(this.now()) !== null || (l && l.batches.pending > 0)) return;
    p.sent = this.socket.send(p.message);
    p.sentAt = this.now();
    if (p.sent) this.leaving = null; // all of it held: the server gives it up at the start, or stores it
  }

  /** The game the server names, this page's current one or the last one still leaving. */
  private game(id: string): Current | null {
    if (this.current?.id === id) return this.current;
    return this.leaving?.id === id ? this.leaving : null;
  }

  /**
   * The last game ended on the server, went on in another tab (`elsewhere`), or the server takes no
   * more of it (null): nothing more of it goes, and the next may be asked for.
   */
  private letGo(g: Current | null, why: GameOver | 'elsewhere' | null): void {
    if (!g) return;
    if (why === 'elsewhere') g.elsewhere = true;
    else if (why) g.over = why;
    this.outbox.remove((q) => gameOf(q) === g.id);
    if (this.leaving === g) this.leaving = null;
    this.resendAt = null;
    g.onOver?.(why === 'elsewhere' ? null : why);
    this.flush();
  }

  /** Pieces, and in Dig the hole columns of rows to come (`holes`), as the server dealt them. */
  private dealInto(c: Current, from: number, pieces: readonly PieceType[], holes?: { from: number; columns: readonly number[] }): void {
    for (let i = 0; i < pieces.length; i++) c.sequence[from + i] = pieces[i]!;
    if (holes) for (let i = 0; i < holes.columns.length; i++) c.holes[holes.from + i] = holes.columns[i]!;
    try {
      c.game.deal(from, pieces);
      if (holes) c.game.dealHoles(holes.from, holes.columns);
    } catch {
      // A deal that does not fit (a repeat after a resume is ignored by deal() itself): the
      // game waits for the next one rather than playing a wrong piece.
    }
  }

  /** The pieces dealt so far as one string ("TIOLJSZ…"). */
  dealtSoFar(): string {
    return this.current?.sequence.join('') ?? '';
  }

  /** Dig: the hole columns dealt so far, by row, as one string of digits ("7390…"); empty in other modes. */
  holesSoFar(): string {
    return this.current?.holes.join('') ?? '';
  }

  /**
   * Called every frame while playing: lets out what waits its turn, and cuts a batch every
   * BATCH_INTERVAL_MS, or at once when forced (a piece locked, the game ended). While the
   * connection is down nothing is cut: the batches after the resume carry everything since, merged
   * (a backlog of small batches would run into the server's message budget).
   */
  pump(now: number, force = false): void {
    this.flush();
    const c = this.current ?? this.leaving;
    if (!c || c.over || c.elsewhere || this.resuming !== null || this.socket.link !== 'open' || (!force && now - this.lastBatch < BATCH_INTERVAL_MS)) return;
    this.lastBatch = now;
    const tick = c.game.snapshot().tick;
    this.send(c, c.batches.cut(c.game.inputs, tick, c.game.playHash()));
  }

  /**
   * Game c's batches or pauses out, in order after what waits, at the page's pace (PacedSends).
   * `afresh`: these are every batch the server lacks (a resume's answer, a resend), so none of c's
   * waiting goes as well, and whether the page has the game paused is said again (a pause or an
   * unpause may have been lost with the link, or refused): an unpause before the batches, a pause
   * after them (the server refuses a batch once paused, and none is cut while paused).
   */
  private send(c: Current, messages: readonly GameMessage[], afresh = false): void {
    if (!afresh) this.outbox.push(...messages);
    else {
      this.outbox.remove((m) => gameOf(m) === c.id);
      const said = { gameId: c.id, tick: c.game.snapshot().tick };
      const unpause = { t: 'unpause' as const, ...said };
      // Paused here: batches to a server that may hold the pause (one refused just before it, its
      // pause taken) go between an unpause and the pause again, which it counts as one more.
      if (c.paused) this.outbox.push(...(c.pauseSent && messages.length > 0 ? [unpause] : []), ...messages, { t: 'pause', ...said });
      else this.outbox.push(...(c.pausedOnce ? [unpause] : []), ...messages);
    }
    this.flush();
  }

  /**
   * What may go now goes, the rest when its turn comes, then a game asked for (startIfAsked). None
   * while a resume is on its way: the server does not hold the game yet, nor has it let it go.
   */
  private flush(): void {
    if (this.socket.link !== 'open' || this.resuming !== null) return;
    const now = this.now();
    // Refused batches go again once the budget has refilled, pumped or not (between games nothing pumps).
    if (this.resendAt !== null && now >= this.resendAt) {
      this.resendAt = null;
      const g = this.current ?? this.leaving;
      if (g && !g.over && !g.elsewhere) return this.send(g, g.batches.kept(), true);
    }
    for (const b of this.outbox.take(now)) {
      this.socket.send(b);
      this.letOut++;
      const g = b.t === 'inputs' ? null : this.game(b.gameId);
      if (g) g.pauseSent = b.t === 'pause';
    }
    this.startIfAsked();
    const waits = [this.outbox.waitMs(now), this.resendAt === null ? null : Math.max(0, this.resendAt - now)].filter((w) => w !== null);
    const wait = waits.length > 0 ? Math.min(...waits) : null;
    if (wait !== null && this.outboxTimer === null)
      this.outboxTimer = setTimeout(() => {
        this.outboxTimer = null;
        this.flush();
      }, wait);
  }

  pause(tick: number): void {
    const c = this.current;
    if (!c || c.over || c.elsewhere) return;
    this.pump(0, true);
    c.paused = true;
    c.pausedOnce = true;
    this.send(c, [{ t: 'pause', gameId: c.id, tick }]);
  }

  unpause(tick: number): void {
    const c = this.current;
    if (!c || c.over || c.elsewhere) return;
    c.paused = false;
    this.send(c, [{ t: 'unpause', gameId: c.id, tick }]);
  }

  /** The game ended here: sends the last inputs and waits for the server's end (with the seed), or null if it never comes. */
  finish(timeoutMs = 60_000): Promise<GameOver | null> {
    const c = this.current;
    if (!c || c.elsewhere) return Promise.resolve(null);
    this.pump(0, true);
    if (c.over) return Promise.resolve(c.over);
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), timeoutMs);
      const done = (o: GameOver | null) => {
        clearTimeout(timer);
        c.onOver = null;
        resolve(o);
      };
      c.onOver = done;
    });
  }

  /** Whether another tab or window took the current game up: its end is not this page's to confirm. */
  get playedElsewhere(): boolean {
    return this.current?.elsewhere === true;
  }

  dispose(): void {
    if (this.outboxTimer !== null) clearTimeout(this.outboxTimer);
    this.outbox.clear();
    this.current?.onOver?.(null);
    this.leaving?.onOver?.(null);
    this.pendingStart?.settle({ ok: false, message: 'The page was closed.' });
    this.socket.close();
  }
}

export type StartResult = { ok: true; gameId: string; game: DealtGame } | { ok: false; message: string };
