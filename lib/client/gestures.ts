import type { Key } from '@/lib/engine';

/**
 * Gesture mode: pointer traces on the field → engine key edges, as pure data (no DOM, no clock:
 * times come in with the samples). The edges then take the same path as keys and buttons
 * (PlayController.press), so replays, verification and the server see nothing new.
 *
 * - tap: rotate (left half of the field counter-clockwise, right half clockwise)
 * - drag sideways: one left/right press per `cellPx` travelled
 * - drag down: soft drop held while the finger stays down
 * - flick down: hard drop; flick up: hold
 *
 * A recognised action is a "pulse" (down, then up later): a tap's rotation is held as long as the
 * finger was down, a step as long as the finger takes to its next sample, so key timing in the
 * replay keeps the player's own rhythm instead of identical zero-length presses.
 */
export type PointerSample = { kind: 'down' | 'move' | 'up' | 'cancel'; id: number; x: number; y: number; t: number };
export type KeyEdge = { key: Key; down: boolean; t: number };

export type GestureConfig = {
  /** Field width in px, for the tap's left/right half. */
  width: number;
  /** Travel per cell, px. */
  cellPx: number;
};

/** Sensitivity 1–10 → px of travel per cell (10: a short swipe crosses the field). */
export function cellPxFor(sensitivity: number): number {
  return Math.round(60 - 4.5 * sensitivity);
}

/** A tap is shorter than this and moves less than half a cell. */
export const TAP_MAX_MS = 300;
/** px/ms over the last stretch of a release that makes it a flick (about a field height in 0.4 s). */
export const FLICK_SPEED = 1;
const FLICK_WINDOW_MS = 80;

type Track = {
  id: number;
  x0: number;
  y0: number;
  t0: number;
  anchorX: number;
  axis: 'none' | 'x' | 'down';
  soft: boolean;
  recent: Array<{ x: number; y: number; t: number }>;
};

export class GestureRecognizer {
  private track: Track | null = null;
  /** Pulses waiting for their up edge: key → time it is due. */
  private readonly pending = new Map<Key, number>();

  constructor(private config: GestureConfig) {}

  configure(config: GestureConfig): void {
    this.config = config;
  }

  /** Up edges of pulses due by `t` (the surface calls this each frame and with every sample). */
  flush(t: number): KeyEdge[] {
    const out: KeyEdge[] = [];
    for (const [key, until] of this.pending) {
      if (until <= t) {
        this.pending.delete(key);
        out.push({ key, down: false, t });
      }
    }
    return out;
  }

  get busy(): boolean {
    return this.track !== null || this.pending.size > 0;
  }

  feed(s: PointerSample): KeyEdge[] {
    const out = this.flush(s.t);
    const tr = this.track;
    if (s.kind === 'down') {
      // One finger drives the gestures; a second one is ignored until the first lifts.
      if (!tr) this.track = { id: s.id, x0: s.x, y0: s.y, t0: s.t, anchorX: s.x, axis: 'none', soft: false, recent: [{ x: s.x, y: s.y, t: s.t }] };
      return out;
    }
    if (!tr || tr.id !== s.id) return out;
    tr.recent.push({ x: s.x, y: s.y, t: s.t });
    while (tr.recent.length > 2 && tr.recent[0]!.t < s.t - FLICK_WINDOW_MS) tr.recent.shift();
    if (s.kind === 'cancel') {
      this.track = null;
      if (tr.soft) out.push({ key: 'softDrop', down: false, t: s.t });
      return out;
    }
    const cell = this.config.cellPx;
    const dx = s.x - tr.x0;
    const dy = s.y - tr.y0;
    if (tr.axis === 'none') {
      if (Math.abs(dx) >= cell / 2 && Math.abs(dx) > Math.abs(dy)) tr.axis = 'x';
      else if (dy >= cell && dy > Math.abs(dx)) tr.axis = 'down';
    }
    if (tr.axis === 'x') {
      const steps = Math.trunc((s.x - tr.anchorX) / cell);
      const key: Key = steps < 0 ? 'left' : 'right';
      for (let i = 0; i < Math.abs(steps); i++) {
        // A second step in the same sample releases the first: two presses, two cells.
        if (this.pending.delete(key)) out.push({ key, down: false, t: s.t });
        out.push(...this.pulse(key, s.t, s.t + 1));
      }
      tr.anchorX += steps * cell;
    }
    if (s.kind === 'move') {
      if (tr.axis === 'down' && !tr.soft && !this.flicking(tr)) {
        tr.soft = true;
        out.push({ key: 'softDrop', down: true, t: s.t });
      }
      return out;
    }
    // Released.
    this.track = null;
    if (tr.soft) out.push({ key: 'softDrop', down: false, t: s.t });
    const duration = s.t - tr.t0;
    const first = tr.recent[0]!;
    const span = Math.max(1, s.t - first.t);
    const vy = (s.y - first.y) / span;
    if (tr.axis !== 'x' && Math.abs(vy) >= FLICK_SPEED && Math.abs(dy) >= cell) {
      out.push(...this.pulse(vy > 0 ? 'hardDrop' : 'hold', s.t, s.t + Math.min(duration, 120)));
    } else if (tr.axis === 'none' && duration < TAP_MAX_MS && Math.hypot(dx, dy) < cell / 2) {
      out.push(...this.pulse(tr.x0 < this.config.width / 2 ? 'rotateCCW' : 'rotateCW', s.t, s.t + Math.max(duration, 17)));
    }
    return out;
  }

  /** While the finger is still moving fast downward it may become a flick: soft drop waits. */
  private flicking(tr: Track): boolean {
    const first = tr.recent[0]!;
    const last = tr.recent[tr.recent.length - 1]!;
    return (last.y - first.y) / Math.max(1, last.t - first.t) >= FLICK_SPEED;
  }

  private pulse(key: Key, t: number, until: number): KeyEdge[] {
    const out: KeyEdge[] = [];
    if (this.pending.has(key)) out.push({ key, down: false, t });
    this.pending.set(key, until);
    out.push({ key, down: true, t });
    return out;
  }
}
