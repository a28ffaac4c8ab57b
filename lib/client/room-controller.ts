import type { GameEvent, InputEvent, Key, Snapshot } from '@/lib/engine';
import { LIVE_PATH } from '@/lib/live/protocol';
import { VERSUS_MAX_LAG_MS } from '@/lib/live/versus';
import type { Action, DisplaySettings, Settings } from '@/lib/validations/settings';
import { buildKeymap, decideAction, decideKey, type KeyDecision, type PlayPhase } from '@/lib/client/keymap';
import { eventTime, TICK_MS } from '@/lib/client/clock';
import { GameRunner } from '@/lib/client/runner';
import { isTargetKey } from '@/lib/client/room-target';
import { liveUrl, type SocketFactory } from '@/lib/client/live/socket';
import { RoomSession, type RoomSessionView } from '@/lib/client/live/room-session';
import type { Meter } from '@/lib/client/versus-controller';

export interface RoomHost {
  /** Every animation frame while a set is on screen: this seat's field (null when watching) and every seat's, by seat. */
  draw(own: Snapshot | null, ownEvents: readonly GameEvent[], others: (Snapshot | null)[], otherEvents: GameEvent[][], now: number, display: DisplaySettings): void;
  onView(view: RoomSessionView): void;
  onCountdown(count: number | null): void;
  onMeter(meter: Meter): void;
  /** Where the page exposes the seat's game as data attributes (tests read them). */
  root: HTMLElement;
  onSettings?(settings: Settings): void;
}

type SeatGame = { tick(inputs?: readonly InputEvent[]): readonly GameEvent[]; readonly over: boolean; readonly ready: boolean };
/** A stalled tab catches up this much at once: the room's clock is the server's (its lag bound, as versus's). */
const CATCH_UP_TICKS = Math.ceil(VERSUS_MAX_LAG_MS.battle / TICK_MS);
const HIDDEN_STEP_MS = 250;

/**
 * One room page's life: the session (socket, lobby, seat, every seat's field), the keyboard (the
 * game's keys and the target key), and the rAF loop that plays this seat's game at 60 ticks/s from
 * each game's countdown end and draws every field. As versus: no pause, the clock is the server's.
 */
export class RoomController {
  readonly session: RoomSession;
  private runner: GameRunner<SeatGame> | null = null;
  private keymap: Map<string, Action>;
  private raf = 0;
  private countdown: number | null = null;
  private readonly preheld = new Map<string, Key>();
  private readonly unlisten: Array<() => void> = [];
  private lastExposed = '';
  private hiddenTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private settings: Settings,
    private readonly host: RoomHost,
    connect?: SocketFactory,
  ) {
    this.keymap = buildKeymap(settings.bindings);
    this.session = new RoomSession({ url: liveUrl(location, LIVE_PATH), connect, onView: (v) => this.onView(v), onGame: () => this.newGame() });
    this.listen(window, 'keydown', (e) => this.onKey(e as KeyboardEvent, true));
    this.listen(window, 'keyup', (e) => this.onKey(e as KeyboardEvent, false));
    this.listen(window, 'blur', () => this.runner?.releaseKeys());
    this.listen(document, 'visibilitychange', () => this.onVisibility());
    host.onSettings?.(settings);
  }

  get handling() {
    return { ...this.settings.handling };
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

  private onView(v: RoomSessionView): void {
    this.host.root.dataset.phase = v.play?.state ?? (v.lobby ? 'lobby' : 'idle');
    this.host.onView(v);
    // A watcher draws every field from the set's first frame (no game of its own starts the loop).
    if (v.play && v.play.state !== 'over') this.loop();
  }

  private get phase(): PlayPhase {
    const state = this.session.current.play?.state;
    return state === 'countdown' ? 'countdown' : state === 'playing' ? 'playing' : 'ended';
  }

  private onKey(e: KeyboardEvent, down: boolean): void {
    const p = this.session.current.play;
    if (!p || p.seat === null) return;
    if (isTargetKey(e.code, this.keymap) && (this.phase === 'playing' || this.phase === 'countdown')) {
      e.preventDefault();
      if (down && !e.repeat) this.session.aimNext();
      return;
    }
    const d = decideKey(e, down, this.keymap, this.phase);
    if (d.preventDefault) e.preventDefault();
    this.apply(d, e.code, down, eventTime(e));
  }

  /** The touch controls' way in. */
  press(action: Action, source: string, down: boolean, t: number): void {
    if (this.session.current.play?.seat != null) this.apply(decideAction(action, false, down, this.phase), source, down, t);
  }

  private apply(d: KeyDecision, code: string, down: boolean, t: number): void {
    if (d.kind === 'preload') {
      if (down) this.preheld.set(code, d.key);
      else this.preheld.delete(code);
    } else if (d.kind === 'engine') this.runner?.key(d.key, code, down, t);
  }

  /** rbegin: a game of the set begins its countdown. */
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
    this.runner = new GameRunner({ game }, CATCH_UP_TICKS);
    this.host.root.dataset.handling = JSON.stringify(seat.handling);
    this.preheld.clear();
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    this.loop();
  }

  private onVisibility(): void {
    if (this.hiddenTimer) clearInterval(this.hiddenTimer);
    this.hiddenTimer = null;
    if (document.visibilityState === 'hidden') this.hiddenTimer = setInterval(() => this.frame(performance.now()), HIDDEN_STEP_MS);
    else this.loop();
  }

  private loop(): void {
    if (this.raf) return;
    const frame = () => {
      this.raf = 0;
      this.frame(performance.now());
      const state = this.session.current.play?.state;
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
    const p = this.session.current.play;
    if (!p) return;
    const seat = this.session.seat;
    let own: Snapshot | null = null;
    let events: readonly GameEvent[] = [];
    const runner = this.runner;
    if (p.seat !== null && runner && seat.game) {
      if (p.state === 'countdown') {
        const left = Math.ceil((seat.startsAt - now) / 1000);
        if (left <= 0) {
          runner.start(seat.startsAt);
          for (const [code, key] of this.preheld) runner.key(key, code, true, seat.startsAt);
          this.preheld.clear();
          this.session.started();
          this.setCountdown(0);
        } else this.setCountdown(left);
      } else if (this.countdown === 0 && now - seat.startsAt > 700) this.setCountdown(null);
      events = runner.frame(now);
      this.session.pump(now, events.some((e) => e.type === 'lock') || (seat.game.over && events.length > 0));
      own = seat.game.snapshot();
      this.expose(own);
    }
    const otherEvents = this.session.fields.advance(now);
    const others = p.players.map((_, s) => this.session.fields.snapshot(s));
    this.host.draw(own, events, others, otherEvents, now, this.settings.display);
  }

  /** The seat's game as data, once per change of piece or position (tests plan moves from it). */
  private expose(snap: Snapshot): void {
    const a = snap.active;
    const key = `${snap.pieces}|${a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : ''}|${snap.garbageQueued}:${snap.garbageReady}|${snap.over}`;
    if (key === this.lastExposed) return;
    this.lastExposed = key;
    const d = this.host.root.dataset;
    d.pieces = String(snap.pieces);
    d.active = a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : '';
    d.stack = snap.board.join('/');
    if (d.queued !== String(snap.garbageQueued) || d.ready !== String(snap.garbageReady)) this.host.onMeter({ rows: snap.garbageQueued, ready: snap.garbageReady });
    d.queued = String(snap.garbageQueued);
    d.ready = String(snap.garbageReady);
    d.toppedOut = String(snap.toppedOut);
    d.over = String(snap.over);
  }

  dispose(): void {
    if (this.hiddenTimer) clearInterval(this.hiddenTimer);
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.session.dispose();
    for (const off of this.unlisten) off();
  }
}
