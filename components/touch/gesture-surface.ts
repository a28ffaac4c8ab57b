import type { Key } from '@/lib/engine';
import { cellPxFor, GestureRecognizer, type KeyEdge, type PointerSample } from '@/lib/client/gestures';

/**
 * Feeds the canvas's pointer events to the gesture recognizer while gesture mode is on, and
 * releases its timed presses on animation frames.
 */
export class GestureSurface {
  private readonly recognizer = new GestureRecognizer({ width: 1, cellPx: cellPxFor(5) });
  private on = false;
  private cellPx = cellPxFor(5);
  private raf = 0;
  private readonly off: Array<() => void> = [];

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly emit: (key: Key, down: boolean, t: number) => void,
  ) {
    for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel'] as const) {
      const fn = (e: PointerEvent) => this.onPointer(e);
      canvas.addEventListener(type, fn);
      this.off.push(() => canvas.removeEventListener(type, fn));
    }
  }

  configure(on: boolean, sensitivity: number): void {
    this.on = on;
    // Gestures own the field's touches (no scrolling or zooming from it) only while they are on.
    this.canvas.style.touchAction = on ? 'none' : '';
    this.cellPx = cellPxFor(sensitivity);
  }

  private onPointer(e: PointerEvent): void {
    if (!this.on) return;
    const kind = ({ pointerdown: 'down', pointermove: 'move', pointerup: 'up', pointercancel: 'cancel' } as const)[e.type as 'pointerdown'];
    if (kind === 'down') {
      e.preventDefault();
      this.canvas.setPointerCapture(e.pointerId);
      // The field's size changes with the screen: measured when a finger lands.
      this.recognizer.configure({ width: this.canvas.clientWidth || 1, cellPx: this.cellPx });
    }
    const box = this.canvas.getBoundingClientRect();
    const sample: PointerSample = { kind, id: e.pointerId, x: e.clientX - box.left, y: e.clientY - box.top, t: e.timeStamp };
    this.send(this.recognizer.feed(sample));
    this.tick();
  }

  private send(edges: KeyEdge[]): void {
    for (const e of edges) this.emit(e.key, e.down, e.t);
  }

  /** Timed releases are due between pointer events: check each frame while any are waiting. */
  private tick(): void {
    if (this.raf || !this.recognizer.busy) return;
    this.raf = requestAnimationFrame((t) => {
      this.raf = 0;
      this.send(this.recognizer.flush(t));
      this.tick();
    });
  }

  dispose(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    for (const f of this.off) f();
  }
}
