import { TICKS_PER_SECOND, type GameEvent, type Snapshot } from '@/lib/engine';
import { nextSpeed, type ReplayAction, type Speed } from '@/lib/client/replay-keys';

/** After a stall (a background tab), playback skips ahead at most this much per frame. */
export const MAX_TICKS_PER_FRAME = 40;
const JUMP_TICKS = 5 * TICKS_PER_SECOND;

/**
 * What playback drives: one replay (ReplayPlayer, a snapshot) or several fields in step
 * (FieldsPlayer, a snapshot per field). `Snap` is what the host draws, `Ev` one played event.
 */
export interface Playable<Snap, Ev> {
  readonly tick: number;
  readonly over: boolean;
  readonly endTick: number;
  step(): readonly Ev[];
  seek(tick: number): void;
  pieceBoundary(dir: 1 | -1): number;
  snapshot(): Snap;
  hash(): string;
}

/** What the viewer's controls and stats show; changes at most once per frame. */
export type PlaybackView<Snap = Snapshot> = { tick: number; snap: Snap; hash: string; playing: boolean; speed: Speed };

export interface PlaybackHost<Snap = Snapshot, Ev = GameEvent> {
  /** Every animation frame: the snapshot to draw, the events of the ticks just played, and whether the position jumped (a seek). */
  draw(snap: Snap, events: readonly Ev[], now: number, jumped: boolean): void;
  onChange(view: PlaybackView<Snap>): void;
}

/**
 * The replay viewer's clock and controls: plays a ReplayPlayer (or a FieldsPlayer) at a speed in
 * wall time, seeks, and runs the shortcut actions. Owns the animation loop; the component only
 * shows `PlaybackView` and hosts the canvas. `frame(now)` is the whole per-frame step, so tests
 * drive it with made-up times.
 */
export class ReplayPlayback<Snap = Snapshot, Ev = GameEvent> {
  private playing: boolean;
  private speed: Speed = 1;
  /** Fractional ticks owed from earlier frames. */
  private carry = 0;
  private last: number | null = null;
  private jumped = true;
  private snap: Snap;
  private raf = 0;

  constructor(
    readonly player: Playable<Snap, Ev>,
    private readonly host: PlaybackHost<Snap, Ev>,
    options: { playing: boolean },
  ) {
    this.playing = options.playing;
    this.snap = player.snapshot();
  }

  get view(): PlaybackView<Snap> {
    return { tick: this.player.tick, snap: this.snap, hash: this.player.hash(), playing: this.playing, speed: this.speed };
  }

  start(): void {
    const loop = (now: number) => {
      this.frame(now);
      this.raf = requestAnimationFrame(loop);
    };
    this.raf = requestAnimationFrame(loop);
  }

  stop(): void {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  frame(now: number): void {
    const { player } = this;
    const startTick = player.tick;
    const wasPlaying = this.playing;
    const events: Ev[] = [];
    if (this.playing && !player.over) {
      if (this.last !== null) this.carry += ((now - this.last) * TICKS_PER_SECOND * this.speed) / 1000;
      const whole = Math.floor(this.carry);
      this.carry -= whole;
      for (let steps = Math.min(whole, MAX_TICKS_PER_FRAME); steps > 0 && !player.over; steps--) events.push(...player.step());
      if (player.over) this.playing = false;
    } else this.carry = 0;
    this.last = now;
    const moved = this.jumped || player.tick !== startTick;
    if (moved) this.snap = player.snapshot();
    this.host.draw(this.snap, events, now, this.jumped);
    this.jumped = false;
    if (moved || wasPlaying !== this.playing) this.changed();
  }

  /** Jumps to a tick; a precise jump (a tick or a piece) pauses, a coarse one keeps playing. */
  seek(tick: number, pause = true): void {
    if (pause) this.playing = false;
    this.player.seek(tick);
    this.jumped = true;
    this.changed();
  }

  setPlaying(playing: boolean): void {
    this.playing = playing;
    this.changed();
  }

  setSpeed(speed: Speed): void {
    this.speed = speed;
    this.changed();
  }

  run(action: ReplayAction): void {
    const { player } = this;
    switch (action) {
      case 'toggle':
        // At the end, play starts over from the beginning.
        if (player.tick >= player.endTick) {
          this.seek(0, false);
          return this.setPlaying(true);
        }
        return this.setPlaying(!this.playing);
      case 'tickBack': return this.seek(player.tick - 1);
      case 'tickForward': return this.seek(player.tick + 1);
      case 'pieceBack': return this.seek(player.pieceBoundary(-1));
      case 'pieceForward': return this.seek(player.pieceBoundary(1));
      case 'back5': return this.seek(player.tick - JUMP_TICKS, false);
      case 'forward5': return this.seek(player.tick + JUMP_TICKS, false);
      case 'start': return this.seek(0, false);
      case 'end': return this.seek(player.endTick);
      case 'slower': return this.setSpeed(nextSpeed(this.speed, -1));
      case 'faster': return this.setSpeed(nextSpeed(this.speed, 1));
    }
  }

  private changed(): void {
    this.host.onChange(this.view);
  }
}
