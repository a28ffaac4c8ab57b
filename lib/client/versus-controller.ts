import type { GameEvent, InputEvent, Key, Snapshot } from '@/lib/engine';
import { LIVE_PATH } from '@/lib/live/protocol';
import { VERSUS_MAX_LAG_MS } from '@/lib/live/versus';
import type { Action, DisplaySettings, Settings } from '@/lib/validations/settings';
import { buildKeymap, decideAction, decideKey, type KeyDecision, type PlayPhase } from '@/lib/client/keymap';
import { eventTime, TICK_MS } from '@/lib/client/clock';
import { GameRunner } from '@/lib/client/runner';
import { liveUrl, type SocketFactory } from '@/lib/client/live/socket';
import { VersusSession, type VersusView } from '@/lib/client/live/versus-session';


/** A garbage meter: rows waiting to rise, and how many of them have landed (may rise at the next lock). */
export type Meter = { rows: number; ready: number };
export interface VersusHost {
  /** Every animation frame while a game of the set is on screen: this seat's field and the opponent's. */
  draw(own: Snapshot, ownEvents: readonly GameEvent[], opponent: Snapshot | null, opponentEvents: readonly GameEvent[], now: number, display: DisplaySettings): void;
  onView(view: VersusView): void;
  /** Seconds left in the current game's countdown (3, 2, 1), 0 at the start, null when none runs. */
  onCountdown(count: number | null): void;
  /** This seat's garbage meter, when it changes: rows waiting, and of those the rows no longer in flight. */
  onMeter(meter: Meter): void;
  /** Where the page exposes the seat's game as data attributes (tests read them). */
  root: HTMLElement;
  onSettings?(settings: Settings): void;
}

/**
 * A stalled or hidden tab catches up this many ticks at once: the match's clock is the server's,
 * and a backlog dropped (as a solo game does) would leave this seat behind it for good.
 */
const catchUpTicks = (mode: keyof typeof VERSUS_MAX_LAG_MS) => Math.ceil(VERSUS_MAX_LAG_MS[mode] / TICK_MS);
/** While the tab is hidden (no animation frames), the game still moves on this often. */
const HIDDEN_STEP_MS = 250;

/** The seat's game as the runner drives it: each tick goes through the seat (garbage first, then inputs). */
type SeatGame = { tick(inputs?: readonly InputEvent[]): readonly GameEvent[]; readonly over: boolean; readonly ready: boolean };

/**
 * One versus page's life: the session (socket, lobby, seat), the keyboard, and the rAF loop that
 * plays this seat's game at 60 ticks/s from each game's countdown end and draws both fields.
 * Unlike a solo game there is no pause and no restart: the clock is the server's.
 */
export class VersusController {
  readonly session: VersusSession;
  private runner: GameRunner<SeatGame> | null = null;
  private keymap: Map<string, Action>;
  private raf = 0;
  private countdown: number | null = null;
  private readonly preheld = new Map<string, Key>();
  private readonly unlisten: Array<() => void> = [];
  private lastExposed = '';

  constructor(
    private settings: Settings,
    private readonly host: VersusHost,
    connect?: SocketFactory,
  ) {
    this.keymap = buildKeymap(settings.bindings);
    this.session = new VersusSession({
      url: liveUrl(location, LIVE_PATH),
      connect,
      onView: (v) => this.onView(v),
      onGame: () => this.newGame(),
    });
    this.listen(window, 'keydown', (e) => this.onKey(e as KeyboardEvent, true));
    this.listen(window, 'keyup', (e) => this.onKey(e as KeyboardEvent, false));
    // Key-ups made in another window never arrive: let go of everything held (the game goes on).
    this.listen(window, 'blur', () => this.runner?.releaseKeys());
    // A hidden tab gets no animation frames: the game goes on from a timer (browsers run hidden
    // tabs' timers about once a second), so its batches keep coming and it tops out as it would.
    this.listen(document, 'visibilitychange', () => this.onVisibility());
    host.onSettings?.(settings);
  }

  /** The seat's handling and preview length, sent when queueing, creating or joining a room. */
  get setup() {
    return { handling: { ...this.settings.handling }, nextCount: this.settings.display.nextCount };
  }

  setSettings(settings: Settings): void {
    this.settings = settings;
    this.keymap = buildKeymap(settings.bindings);
    this.host.onSettings?.(settings);
  }

  private listen(target: EventTarget, type: string, fn: (e: Event) => void): void {
    target.addEventListener(type, fn);
    this.unlisten.push(() => target.removeEventListener(type, fn));
  }

  private onView(v: VersusView): void {
    this.host.root.dataset.phase = v.match?.state ?? v.lobby.kind;
    this.host.onView(v);
  }

  private get phase(): PlayPhase {
    const state = this.session.current.match?.state;
    return state === 'countdown' ? 'countdown' : state === 'playing' ? 'playing' : 'ended';
  }

  private onKey(e: KeyboardEvent, down: boolean): void {
    if (!this.session.current.match) return;
    const d = decideKey(e, down, this.keymap, this.phase);
    if (d.preventDefault) e.preventDefault();
    this.apply(d, e.code, down, eventTime(e));
  }

  /** The touch controls' way in, as on the play page. */
  press(action: Action, source: string, down: boolean, t: number): void {
    if (this.session.current.match) this.apply(decideAction(action, false, down, this.phase), source, down, t);
  }

  private apply(d: KeyDecision, code: string, down: boolean, t: number): void {
    // Pause and restart mean nothing here: the match's clock is the server's.
    if (d.kind === 'preload') {
      if (down) this.preheld.set(code, d.key);
      else this.preheld.delete(code);
    } else if (d.kind === 'engine') this.runner?.key(d.key, code, down, t);
  }

  /** vstart: a game of the set begins its countdown. */
  private newGame(): void {
    const seat = this.session.seat;
    this.runner?.pause();
    const game: SeatGame = {
      tick: (inputs) => seat.step(inputs ? [...inputs] : []),
      get over() {
        return seat.game?.over ?? true;
      },
      get ready() {
        return seat.game?.ready ?? false;
      },
    };
    this.runner = new GameRunner({ game }, catchUpTicks(seat.mode));
    this.host.root.dataset.handling = JSON.stringify(seat.handling);
    this.preheld.clear();
    // A button clicked to ready up keeps focus; Space would press it again.
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    this.loop();
  }

  private hiddenTimer: ReturnType<typeof setInterval> | null = null;

  private onVisibility(): void {
    if (this.hiddenTimer) clearInterval(this.hiddenTimer);
    this.hiddenTimer = null;
    if (document.visibilityState === 'hidden') this.hiddenTimer = setInterval(() => this.frame(performance.now()), HIDDEN_STEP_MS);
    else if (this.runner) this.loop();
  }

  private loop(): void {
    if (this.raf) return;
    const frame = () => {
      this.raf = 0;
      this.frame(performance.now());
      const state = this.session.current.match?.state;
      if (state && state !== 'over') this.raf = requestAnimationFrame(frame);
      else this.setCountdown(null);
    };
    this.raf = requestAnimationFrame(frame);
  }

  private setCountdown(n: number | null): void {
    if (n === this.countdown) return;
    this.countdown = n;
    this.host.onCountdown(n);
  }

  private frame(now: number): void {
    const seat = this.session.seat;
    const runner = this.runner;
    const match = this.session.current.match;
    if (!runner || !seat.game || !match) return;
    if (match.state === 'countdown') {
      const left = Math.ceil((seat.startsAt - now) / 1000);
      if (left <= 0) {
        runner.start(seat.startsAt);
        for (const [code, key] of this.preheld) runner.key(key, code, true, seat.startsAt);
        this.preheld.clear();
        this.session.started();
        this.setCountdown(0);
      } else this.setCountdown(left);
    } else if (this.countdown === 0 && now - seat.startsAt > 700) this.setCountdown(null);
    const events = runner.frame(now);
    this.session.pump(now, events.some((e) => e.type === 'lock') || (seat.game.over && events.length > 0));
    const own = seat.game.snapshot();
    const opponentEvents = this.session.opponent?.advance(now) ?? [];
    const opponent = this.session.opponent?.snapshot() ?? null;
    this.expose(own);
    this.host.draw(own, events, opponent, opponentEvents, now, this.settings.display);
  }

  /** The seat's game as data, once per change of piece or position (tests plan moves from it). */
  private expose(snap: Snapshot): void {
    const a = snap.active;
    const key = `${snap.pieces}|${a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : ''}|${snap.garbageQueued}:${snap.garbageReady}|${snap.over}`;
    if (key === this.lastExposed) return;
    this.lastExposed = key;
    const d = this.host.root.dataset;
    d.pieces = String(snap.pieces);
    d.lines = String(snap.lines);
    d.active = a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : '';
    d.dealt = this.session.seat.sequence.join('');
    d.stack = snap.board.join('/');
    if (d.queued !== String(snap.garbageQueued) || d.ready !== String(snap.garbageReady)) this.host.onMeter({ rows: snap.garbageQueued, ready: snap.garbageReady });
    d.queued = String(snap.garbageQueued);
    d.ready = String(snap.garbageReady);
    d.toppedOut = String(snap.toppedOut);
  }

  dispose(): void {
    if (this.hiddenTimer) clearInterval(this.hiddenTimer);
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.session.dispose();
    for (const off of this.unlisten) off();
  }
}
