import { encodeReplay, type DealtGame, type FinesseTally, type GameEvent, type Key, type Mode, type Snapshot } from '@/lib/engine';
import { SOLO_MAX_LAG_MS, START_COUNTDOWN_MS } from '@/lib/live/pace';
import { PAUSE_BUDGETS } from '@/lib/live/pauses';
import { LIVE_PATH } from '@/lib/live/protocol';
import type { Action, DisplaySettings, Settings } from '@/lib/validations/settings';
import { type Outcome, type Submission, type Ticket, type VerifiedGame } from '@/lib/client/api';
import { buildKeymap, decideAction, decideKey, type KeyDecision } from '@/lib/client/keymap';
import { keepPending, submitAndSettle, type KeyValueStore, type PendingFlusher } from '@/lib/client/pending';
import { eventTime, TICK_MS } from '@/lib/client/clock';
import { GameRunner } from '@/lib/client/runner';
import { practiceTicket } from '@/lib/client/practice';
import { LiveSession, type LiveView } from '@/lib/client/live/session';
import { liveUrl } from '@/lib/client/live/socket';
import { countsDown } from '@/lib/client/countdown';

export const COUNTDOWN_STEPS = 3;
export const COUNTDOWN_STEP_MS = START_COUNTDOWN_MS / COUNTDOWN_STEPS;
/**
 * A live game's clock is the server's: after a stalled frame it runs the whole backlog the pace
 * allows, since each backlog dropped (as practice does, MAX_CATCH_UP_TICKS) leaves it that much
 * further behind for good.
 */
const LIVE_CATCH_UP_TICKS = Math.ceil(SOLO_MAX_LAG_MS / TICK_MS);

export type SubmitState =
  /** An unranked practice game: nothing was sent, nothing will be. */
  | { status: 'practice' }
  | { status: 'verifying' }
  | { status: 'verified'; verified: VerifiedGame }
  /** Not taken yet; `saved`: on this device's queue, retried by itself (false: storage full or off, only Retry). */
  | { status: 'queued'; message: string; saved: boolean }
  | { status: 'failed'; message: string };

export type PlayState =
  | { phase: 'loading' }
  | { phase: 'ticketError'; message: string }
  /** `redeal`: not begun, so a pause deals a new game rather than pausing this one (PlayController.redeals). */
  | { phase: 'countdown'; count: number; ticket: Ticket; redeal?: boolean }
  | { phase: 'playing'; ticket: Ticket }
  /** `redeal`: as for the countdown; resuming deals the new game. */
  | { phase: 'paused'; ticket: Ticket; redeal?: boolean }
  | { phase: 'ended'; ticket: Ticket; result: Snapshot; submit: SubmitState; finesse?: FinesseSummary };

/** A finished game's finesse (lib/engine/finesse.ts), counted in the browser as it was played. */
export type FinesseSummary = { faults: number; judged: number };

export interface PlayHost {
  /**
   * Called every animation frame while a game is on screen, with the display settings to draw
   * it with: the controller owns the settings, the renderer only receives them.
   */
  draw(snapshot: Snapshot, events: readonly GameEvent[], hidden: boolean, now: number, display: DisplaySettings): void;
  onState(state: PlayState): void;
  /** The live channel as the page shows it (ranked games only; null in practice). */
  onLive?(view: LiveView): void;
  storage: KeyValueStore;
  flusher: PendingFlusher;
  /** Where the page exposes the seed and progress as data attributes (tests read them). */
  root: HTMLElement;
  /** Told the settings at start and on every change (touch controls and sound follow them). */
  onSettings?(settings: Settings): void;
}

function outcomeState(o: Outcome, saved: boolean): SubmitState {
  if (o.kind === 'ok') return { status: 'verified', verified: o.body };
  if (o.kind === 'retry') return { status: 'queued', message: o.message, saved };
  return { status: 'failed', message: o.message };
}

/**
 * One play page's life: ticket → countdown (the page's first game) → game at 60 ticks/s →
 * submission, with pause, restart and tab-leave handling. Owns the rAF loop and the keyboard listeners; React only shows
 * `PlayState` and hosts the canvas.
 */
export class PlayController {
  private state: PlayState = { phase: 'loading' };
  private runner: GameRunner | null = null;
  private started = false;
  private countdownEnd = 0;
  private raf = 0;
  private snapshot: Snapshot | null = null;
  private keymap: Map<string, Action>;
  private generation = 0;
  /** Games this page has started: only the first counts down, unless the settings say every one. */
  private gamesStarted = 0;
  /** Movement keys held during the countdown or a restart's load, pressed in the engine on the first tick. */
  private readonly preheld = new Map<string, Key>();
  private suspended = false;
  private readonly unlisten: Array<() => void> = [];
  private readonly bench: number[] | null;
  /** Ranked games are live: the server deals the pieces and follows the game (null in practice). */
  private readonly live: LiveSession | null;
  private dealt: DealtGame | null = null;
  private livePaused = false;
  /** The running game's finesse count; the page shows it from `data-faults`. */
  private finesse: FinesseTally | null = null;

  constructor(
    private readonly mode: Mode,
    private settings: Settings,
    private readonly host: PlayHost,
    /** Unranked practice: local seeds, no server, results never submitted. */
    private readonly practice = false,
  ) {
    this.keymap = buildKeymap(settings.bindings);
    const w = window as unknown as { __linefallBench?: number[] };
    this.bench = Array.isArray(w.__linefallBench) ? w.__linefallBench : null;
    this.listen(window, 'keydown', (e) => this.onKey(e as KeyboardEvent, true));
    this.listen(window, 'keyup', (e) => this.onKey(e as KeyboardEvent, false));
    this.listen(window, 'blur', () => this.pause());
    this.listen(document, 'visibilitychange', () => {
      if (document.visibilityState === 'hidden') this.pause();
    });
    this.unlisten.push(host.flusher.onSettled((gameId, outcome) => this.onBackgroundSubmit(gameId, outcome)));
    this.live = practice ? null : new LiveSession({ url: liveUrl(location, LIVE_PATH), onView: (v) => host.onLive?.(v) });
    host.onSettings?.(settings);
  }

  private listen(target: EventTarget, type: string, fn: (e: Event) => void): void {
    target.addEventListener(type, fn);
    this.unlisten.push(() => target.removeEventListener(type, fn));
  }

  private set(state: PlayState): void {
    this.state = state;
    this.host.root.dataset.phase = state.phase;
    this.host.onState(state);
  }

  get current(): PlayState {
    return this.state;
  }

  /** New display and key settings apply at once; handling from the next game on (a replay has one). */
  setSettings(settings: Settings): void {
    this.settings = settings;
    this.keymap = buildKeymap(settings.bindings);
    this.host.onSettings?.(settings);
  }

  /** While a settings dialog is open the page's keys belong to it. */
  setSuspended(on: boolean): void {
    this.suspended = on;
    if (on) this.pause();
  }

  /**
   * Starts a game: a live ranked one from the server, or a local practice one. `countdown`: this
   * one counts down whatever the settings say (a game dealt again as its player comes back).
   */
  async newGame(o: { countdown?: boolean } = {}): Promise<void> {
    const gen = ++this.generation;
    this.runner?.pause();
    this.runner = null;
    this.snapshot = null;
    this.started = false;
    this.preheld.clear();
    this.set({ phase: 'loading' });
    const { handling, display } = this.settings;
    this.dealt = null;
    this.livePaused = false;
    // Decided before a live game is asked for: the server's clock waits out the countdown too.
    const countdown = o.countdown === true || countsDown(display.countdown, this.gamesStarted);
    const res = this.live ? await this.startLive(gen, countdown) : { ok: true as const, ticket: practiceTicket(this.mode) };
    if (gen !== this.generation) return;
    if (!res.ok) {
      this.set({ phase: 'ticketError', message: res.message });
      return;
    }
    const { ticket } = res;
    this.runner = this.dealt
      ? new GameRunner({ game: this.dealt }, LIVE_CATCH_UP_TICKS)
      : new GameRunner({ mode: this.mode, seed: ticket.seed, handling: { ...handling }, nextCount: display.nextCount });
    this.snapshot = this.runner.game.snapshot();
    // Shown with the new seed at once, not at the first frame: until then the page described the
    // last game's pieces beside this game's seed (a loaded machine's test read one as the other).
    this.expose(this.snapshot);
    this.finesse = this.runner.game.finesse();
    this.host.root.dataset.faults = '0';
    this.host.root.dataset.seed = ticket.seed;
    this.host.root.dataset.gameId = ticket.gameId;
    this.host.root.dataset.handling = JSON.stringify(handling);
    // Ready while the settings dialog is open, or in a background tab (the countdown would run
    // out unseen): wait paused for the player instead, and count down when they come back.
    const waits = this.suspended || document.hidden;
    if (waits || countdown) this.startCountdown(ticket);
    else this.startNow(ticket, this.runner);
    this.gamesStarted++;
    if (waits) this.pause();
    else this.loop();
  }

  /**
   * A ranked game over the live channel: no seed until it ends, pieces dealt as it goes. Asked for
   * once the tab is seen: dealt in a hidden tab, the game would wait paused, and in Sprint and Ultra
   * a pause costs the rank (lib/live/pauses.ts).
   */
  private async startLive(gen: number, countdown: boolean): Promise<{ ok: true; ticket: Ticket } | { ok: false; message: string }> {
    await whenVisible();
    if (gen !== this.generation) return { ok: false, message: 'Another game was asked for.' };
    const { handling, display } = this.settings;
    const res = await this.live!.start({ mode: this.mode, handling: { ...handling }, nextCount: display.nextCount, countdown });
    if (!res.ok) return res;
    this.dealt = res.game;
    const at = new Date().toISOString();
    return { ok: true, ticket: { gameId: res.gameId, seed: '', mode: this.mode, rulesVersion: res.game.replay().rulesVersion, issuedAt: at, expiresAt: '' } };
  }

  private startCountdown(ticket: Ticket): void {
    this.preheld.clear();
    // A button clicked to start or resume keeps focus; Space would press it again.
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    this.countdownEnd = performance.now() + COUNTDOWN_STEPS * COUNTDOWN_STEP_MS;
    this.set({ phase: 'countdown', count: COUNTDOWN_STEPS, ticket, ...(this.redeals() ? { redeal: true } : {}) });
  }

  /**
   * A restart plays at once: its pieces are drawn from the frame they arrived in, which is when
   * the browser's clock starts, as the server's did when it dealt them (0010).
   */
  private startNow(ticket: Ticket, runner: GameRunner): void {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    const now = performance.now();
    runner.start(now);
    this.started = true;
    for (const [code, key] of this.preheld) runner.key(key, code, true, now);
    this.preheld.clear();
    this.set({ phase: 'playing', ticket });
  }

  pause(): void {
    const s = this.state;
    if (s.phase !== 'playing' && s.phase !== 'countdown') return;
    // Recorded by the server with its length: a ranked game allows a few short pauses. A game
    // that waits paused before its first tick (settings open, tab hidden) pauses there too, or
    // the wait would count against its pace; unless it is dealt again instead (redeals).
    if (this.runner && !this.livePaused && !this.redeals()) {
      this.livePaused = true;
      this.live?.pause(this.runner.tick);
    }
    this.runner?.pause();
    this.set({ phase: 'paused', ticket: s.ticket, ...(this.redeals() ? { redeal: true } : {}) });
    if (this.snapshot) this.host.draw(this.snapshot, [], true, performance.now(), this.settings.display);
  }

  resume(): void {
    const s = this.state;
    if (s.phase !== 'paused' || this.suspended) return;
    if (this.redeals()) {
      void this.newGame({ countdown: true });
      return;
    }
    this.startCountdown(s.ticket);
    this.loop();
  }

  /**
   * Whether a pause of the game on screen deals a new one when its player comes back rather than
   * pausing this one: a live game not yet begun (its countdown, or dealt while the settings dialog
   * was open or the tab hidden), in a mode where any pause costs the rank (lib/live/pauses.ts). A
   * player who opened the settings during a Sprint's 3-2-1 lost its rank for a game they never
   * played. Dealing again gives that one up (its ticket abandoned, as a restart's is): nothing a
   * player could not do by pressing R.
   */
  private redeals(): boolean {
    return this.live !== null && !this.started && PAUSE_BUDGETS[this.mode].pauses === 0;
  }

  private onKey(e: KeyboardEvent, down: boolean): void {
    if (this.suspended) return;
    const d = decideKey(e, down, this.keymap, this.state.phase);
    if (d.preventDefault) e.preventDefault();
    this.apply(d, e.code, down, eventTime(e));
  }

  /**
   * The touch controls' way in: an action pressed or released by an on-screen button or a
   * gesture at time `t` (an event's timeStamp). `source` names the finger, as a key code names a
   * key, so two fingers on one button release it only when both lift. Same path as a key from here.
   */
  press(action: Action, source: string, down: boolean, t: number): void {
    if (this.suspended) return;
    this.apply(decideAction(action, false, down, this.state.phase), source, down, t);
  }

  private apply(d: KeyDecision, code: string, down: boolean, t: number): void {
    if (d.kind === 'pause') this.pause();
    else if (d.kind === 'resume') this.resume();
    else if (d.kind === 'restart') void this.newGame();
    else if (d.kind === 'preload') {
      if (down) this.preheld.set(code, d.key);
      else this.preheld.delete(code);
    } else if (d.kind === 'engine' && this.runner) {
      this.runner.key(d.key, code, down, t);
    }
  }

  private loop(): void {
    if (this.raf) return;
    const frame = (ts: number) => {
      this.raf = 0;
      const start = performance.now();
      this.frame(start);
      if (this.bench) this.bench.push(ts, performance.now() - start);
      if (this.state.phase === 'countdown' || this.state.phase === 'playing') this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  private frame(now: number): void {
    const runner = this.runner;
    const s = this.state;
    if (!runner || !this.snapshot) return;
    if (s.phase === 'countdown') {
      const left = Math.ceil((this.countdownEnd - now) / COUNTDOWN_STEP_MS);
      if (left <= 0) {
        if (this.started) runner.resume(this.countdownEnd);
        else runner.start(this.countdownEnd);
        if (this.livePaused) this.live?.unpause(runner.tick);
        this.livePaused = false;
        this.started = true;
        for (const [code, key] of this.preheld) runner.key(key, code, true, this.countdownEnd);
        this.preheld.clear();
        this.set({ phase: 'playing', ticket: s.ticket });
      } else if (left !== s.count) this.set({ ...s, count: left });
    }
    let events: GameEvent[] = [];
    if (this.state.phase === 'playing') {
      events = runner.frame(now);
      if (events.length > 0 || runner.tick !== this.snapshot.tick) this.snapshot = runner.game.snapshot();
      this.expose(this.snapshot);
      // A locked piece goes to the server at once: the next deal depends on it.
      this.live?.pump(now, events.some((e) => e.type === 'lock'));
      this.live?.setWaiting(runner.waiting);
      this.host.root.dataset.waiting = String(runner.waiting);
    }
    this.host.draw(this.snapshot, events, fieldHidden(this.state.phase, this.started), now, this.settings.display);
    if (runner.game.over && this.state.phase === 'playing') void this.finish(this.state.ticket, runner);
  }

  private lastExposed = '';
  private expose(snap: Snapshot): void {
    const a = snap.active;
    const key = `${snap.pieces}|${a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : ''}`;
    if (key === this.lastExposed) return;
    this.lastExposed = key;
    this.host.root.dataset.pieces = String(snap.pieces);
    this.host.root.dataset.lines = String(snap.lines);
    this.host.root.dataset.progress = String(snap.progress);
    this.host.root.dataset.score = String(snap.score);
    this.host.root.dataset.clears = String(snap.clears);
    this.host.root.dataset.active = a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : '';
    // The pieces dealt so far and the locked cells: what a spectator must see too (tests compare).
    if (this.live) this.host.root.dataset.dealt = this.live.dealtSoFar();
    if (this.live) this.host.root.dataset.holes = this.live.holesSoFar();
    this.host.root.dataset.stack = snap.board.join('/');
    if (this.finesse) this.host.root.dataset.faults = String(this.finesse.faults);
  }

  private async finish(ticket: Ticket, runner: GameRunner): Promise<void> {
    const result = runner.game.snapshot();
    this.snapshot = result;
    this.host.draw(result, [], false, performance.now(), this.settings.display);
    const { faults, judged } = runner.game.finesse();
    const finesse = { faults, judged };
    if (this.practice) {
      this.set({ phase: 'ended', ticket, result, submit: { status: 'practice' }, finesse });
      return;
    }
    const replay = this.dealt ? await this.revealed(ticket, result, this.dealt, finesse) : runner.game.replay();
    if (!replay) return;
    const submission: Submission = {
      gameId: ticket.gameId,
      mode: this.mode,
      replay: encodeReplay(replay),
      claimed: { score: result.score, lines: result.lines, ticks: result.tick },
      ...(ticket.expiresAt ? { expiresAt: ticket.expiresAt } : {}),
    };
    // On disk before the first attempt: whatever happens next, the game is not lost.
    this.lastSaved = true;
    try {
      keepPending(this.host.storage, submission, Date.now());
    } catch {
      // Storage full or disabled: still submit now; only the offline safety net is missing, and
      // the result screen must not promise it (the game is in this page's memory, for Retry).
      this.lastSaved = false;
    }
    this.set({ phase: 'ended', ticket, result, submit: { status: 'verifying' }, finesse });
    await this.submit(submission);
  }

  /**
   * A live game's seeded replay: the server reveals the seed once its copy of the game has ended
   * too. Without it (the connection never came back) nothing can be submitted from here; the
   * server finalizes a stream that reached its end by itself.
   */
  private async revealed(ticket: Ticket, result: Snapshot, game: DealtGame, finesse: FinesseSummary) {
    this.set({ phase: 'ended', ticket, result, submit: { status: 'verifying' }, finesse });
    const over = await this.live!.finish();
    if (this.state.phase !== 'ended' || this.state.ticket.gameId !== ticket.gameId) return null;
    try {
      if (!over) throw new Error('no end');
      game.reveal(over.seed);
      this.host.root.dataset.seed = over.seed;
      return game.replay();
    } catch {
      const message = this.live!.playedElsewhere
        ? 'it went on in another tab or window, where its result is kept.'
        : 'The live server did not confirm the end of this game, so it cannot be verified from here.';
      this.set({ ...this.state, submit: { status: 'failed', message } });
      return null;
    }
  }

  private lastSubmission: Submission | null = null;
  /** Whether the last game reached this device's queue of saved games. */
  private lastSaved = true;

  private async submit(submission: Submission): Promise<void> {
    this.lastSubmission = submission;
    const outcome = await submitAndSettle(this.host.storage, submission);
    this.settle(submission.gameId, outcome, this.lastSaved);
  }

  /** "Retry" on the result screen. */
  async retry(): Promise<void> {
    const s = this.state;
    if (s.phase !== 'ended' || !this.lastSubmission || s.submit.status === 'verified') return;
    this.set({ ...s, submit: { status: 'verifying' } });
    await this.submit(this.lastSubmission);
  }

  /** The result screen follows its game whichever path (retry button, timer, `online`) submitted it. */
  private onBackgroundSubmit(gameId: string, outcome: Outcome): void {
    // The timer and `online` only ever submit games read from the device's queue.
    this.settle(gameId, outcome, true);
  }

  private settle(gameId: string, outcome: Outcome, saved: boolean): void {
    const s = this.state;
    if (s.phase !== 'ended' || s.ticket.gameId !== gameId) return;
    if (s.submit.status === 'verified' && outcome.kind !== 'ok') return;
    this.set({ ...s, submit: outcomeState(outcome, saved) });
  }

  dispose(): void {
    this.generation++;
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.runner?.pause();
    this.live?.dispose();
    for (const off of this.unlisten) off();
  }
}

/** Settles once the page is visible: at once if it is. */
function whenVisible(): Promise<void> {
  if (!document.hidden) return Promise.resolve();
  return new Promise((resolve) => {
    const seen = () => {
      if (document.hidden) return;
      document.removeEventListener('visibilitychange', seen);
      resolve();
    };
    document.addEventListener('visibilitychange', seen);
  });
}

/**
 * Whether the field and its queue are hidden: while paused, and while a resume counts down (a
 * pause's length is excused from the pace, so its 3-2-1 must show nothing to study). A game's first
 * countdown shows its queue, as a countdown does on every site: the server's clock waits it out
 * (lib/live/pace.ts), and a page that hid it only left the preview to a modified one.
 */
export function fieldHidden(phase: PlayState['phase'], started: boolean): boolean {
  return phase === 'countdown' ? started : phase !== 'playing';
}
