import type { GameEvent, Key, PieceFinesse, Snapshot } from '@/lib/engine';
import type { Action, Settings } from '@/lib/validations/settings';
import { buildKeymap, isEngineKey } from '@/lib/client/keymap';
import { eventTime } from '@/lib/client/clock';
import { GameRunner } from '@/lib/client/runner';
import type { Sandbox } from '@/lib/client/sandbox';
import { decideSandboxKey } from '@/lib/client/sandbox-keys';

export interface SandboxView {
  canUndo: boolean;
  paused: boolean;
  over: boolean;
  pieces: number;
  /** Pieces dealt so far, the one in play included (a fumen drill counts its pieces by it). */
  taken: number;
  /** The finesse trainer is on: a piece placed with a fault starts again. */
  trainer: boolean;
  /** Finesse faults of the pieces placed. */
  faults: number;
  /** The trainer's last taken-back piece, until a clean one is placed. */
  fault: PieceFinesse | null;
  /** Nothing falls until the player's first key (after opening, an undo, a reset or a pause). */
  waiting: boolean;
}

export interface SandboxHost {
  draw(snapshot: Snapshot, events: readonly GameEvent[], now: number): void;
  onView(view: SandboxView): void;
  /** Where the board is exposed as data attributes (the e2e test compares them). */
  root: HTMLElement;
  /** A fumen's page keys; without it they are not the sandbox's. */
  onPage?: (step: -1 | 1) => void;
}

/**
 * Runs a Sandbox at 60 ticks/s with the player's keys: a GameRunner around it, rebuilt after an
 * undo or reset so no key or tick stamp carries over, and the rAF loop. Pauses when the tab loses
 * focus and while `suspended` (the editor or a text box has the keys). Its clock starts on the
 * player's first key: a position opened at a moment (the last piece before a top-out, say) would
 * otherwise lock its piece under gravity before the player has looked at it.
 */
export class SandboxController {
  private runner: GameRunner<Sandbox>;
  private raf = 0;
  private drawnTick = -1;
  private paused = false;
  private suspended = false;
  private snapshot: Snapshot;
  private keymap: ReturnType<typeof buildKeymap>;
  private readonly unlisten: Array<() => void> = [];

  constructor(
    private readonly sandbox: Sandbox,
    settings: Settings,
    private readonly host: SandboxHost,
  ) {
    this.keymap = buildKeymap(settings.bindings);
    this.runner = this.freshRunner();
    this.snapshot = sandbox.snapshot();
    this.listen(window, 'keydown', (e) => this.onKey(e as KeyboardEvent, true));
    this.listen(window, 'keyup', (e) => this.onKey(e as KeyboardEvent, false));
    this.listen(window, 'blur', () => this.setPaused(true));
    this.expose();
    this.loop();
  }

  private listen(target: EventTarget, type: string, fn: (e: Event) => void): void {
    target.addEventListener(type, fn);
    this.unlisten.push(() => target.removeEventListener(type, fn));
  }

  private freshRunner(): GameRunner<Sandbox> {
    this.sandbox.takeOver();
    return new GameRunner<Sandbox>({ game: this.sandbox });
  }

  /** Waiting for the first key: not paused or suspended, and the game not over, yet its clock not started. */
  private get waiting(): boolean {
    return !this.runner.isRunning && !this.paused && !this.suspended && !this.sandbox.over;
  }

  /** A key of the game: the first one after a jump starts the clock, at its own time (it is the first tick's). */
  private engineKey(key: Key, code: string, down: boolean, t: number): void {
    if (down && this.waiting) {
      this.runner.start(t);
      this.expose();
    }
    this.runner.key(key, code, down, t);
  }

  setSettings(settings: Settings): void {
    this.keymap = buildKeymap(settings.bindings);
  }

  setSuspended(on: boolean): void {
    this.suspended = on;
    if (on) this.runner.pause();
    else if (!this.paused) this.restart();
    this.expose();
  }

  setPaused(on: boolean): void {
    if (on === this.paused) return;
    this.paused = on;
    if (on) this.runner.pause();
    else if (!this.suspended) this.restart();
    this.expose();
  }

  /** An action from the touch pad or a gesture (`source` tells fingers apart, as a key code does). */
  press(action: Action, source: string, down: boolean, t: number): void {
    if (this.suspended) return;
    if (isEngineKey(action)) {
      if (!this.paused) this.engineKey(action, source, down, t);
    } else if (down && action === 'pause') this.setPaused(!this.paused);
    else if (down && action === 'restart') this.reset();
  }

  /** The finesse trainer on or off (lib/client/sandbox.ts). */
  setTrainer(on: boolean): void {
    this.sandbox.trainer = on;
    this.expose();
  }

  undo(): void {
    if (this.sandbox.undo()) this.afterJump();
  }

  reset(): void {
    this.sandbox.reset();
    this.afterJump();
  }

  private afterJump(): void {
    this.runner.pause();
    this.runner = this.freshRunner();
    this.drawnTick = -1;
    this.snapshot = this.sandbox.snapshot();
    this.expose();
  }

  /** A paused or stopped runner cannot be resumed from a jump: start a new one on the same sandbox. */
  private restart(): void {
    this.runner.pause();
    this.runner = this.freshRunner();
    this.drawnTick = -1;
    this.loop();
  }

  private onKey(e: KeyboardEvent, down: boolean): void {
    if (this.suspended) return;
    const target = e.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
    const d = decideSandboxKey(e, down, this.keymap, this.paused, this.host.onPage !== undefined);
    if (d.kind !== 'ignore' && d.preventDefault) e.preventDefault();
    switch (d.kind) {
      case 'ignore':
        return;
      case 'undo':
        return this.undo();
      case 'reset':
        return this.reset();
      case 'pause':
        return this.setPaused(!this.paused);
      case 'page':
        return this.host.onPage?.(d.step);
      case 'engine':
        // A focused button would take Space as a click as well.
        if (down && document.activeElement instanceof HTMLButtonElement) document.activeElement.blur();
        this.engineKey(d.key, e.code, down, eventTime(e));
        return;
      default: {
        const unhandled: never = d;
        return unhandled;
      }
    }
  }

  private loop(): void {
    if (this.raf) return;
    const frame = (now: number) => {
      this.raf = 0;
      const events = this.runner.frame(now);
      // A piece the trainer took back emits nothing, yet the board and the view change.
      const takenBack = this.sandbox.fault !== this.shownFault;
      if (events.length > 0 || takenBack || this.runner.tick !== this.drawnTick) {
        this.drawnTick = this.runner.tick;
        this.snapshot = this.sandbox.snapshot();
        if (events.length > 0 || takenBack) this.expose();
      }
      this.host.draw(this.snapshot, events, now);
      this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  private shownFault: PieceFinesse | null = null;

  private expose(): void {
    const s = this.snapshot;
    const a = s.active;
    const d = this.host.root.dataset;
    d.board = s.board.join('/');
    d.active = a ? `${a.type}:${a.rotation}:${a.x}:${a.y}` : '';
    d.hold = s.hold ?? '';
    d.pieces = String(this.sandbox.placed.length);
    d.next = s.next.join('');
    const { canUndo, over, placed, taken, trainer, faults, fault } = this.sandbox;
    this.shownFault = fault;
    d.faults = String(faults);
    d.waiting = String(this.waiting);
    this.host.onView({ canUndo, paused: this.paused, over, pieces: placed.length, taken, trainer, faults, fault, waiting: this.waiting });
  }

  /** The sandbox as it is now (for exports); the loop keeps running. */
  current(): Snapshot {
    return this.sandbox.snapshot();
  }

  dispose(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.runner.pause();
    for (const off of this.unlisten) off();
  }
}
