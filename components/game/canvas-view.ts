import type { Snapshot } from '@/lib/engine';
import { createRenderCache, drawGame, layoutFor, statsColumn, statsTop, UNITS_H, UNITS_W, type DrawOptions, type Layout } from '@/components/game/draw';

/**
 * A canvas that fills its parent, keeps a backing store of CSS size × devicePixelRatio (sharp on
 * high-DPI screens) and redraws the last snapshot when resized. Framework-free so the game loop can
 * draw every frame without going through React.
 */
export class CanvasView {
  private ctx: CanvasRenderingContext2D | null;
  private layout: Layout | null = null;
  private observer: ResizeObserver | null = null;
  private last: { snap: Snapshot; opts: DrawOptions } | null = null;
  /** The canvas in its parent, in CSS pixels: where it starts, and CSS pixels per backing pixel. */
  private place = { top: 0, scale: 1 };
  private statsAt = '';
  private readonly cache = createRenderCache();

  constructor(private readonly canvas: HTMLCanvasElement) {
    this.ctx = canvas.getContext('2d', { alpha: false });
    const parent = canvas.parentElement;
    if (parent && typeof ResizeObserver !== 'undefined') {
      this.observer = new ResizeObserver(() => this.resize());
      this.observer.observe(parent);
    }
    this.resize();
  }

  private resize(): void {
    const parent = this.canvas.parentElement;
    if (!parent) return;
    const dpr = window.devicePixelRatio || 1;
    // Keep the picture's aspect ratio inside the parent's box.
    const box = parent.getBoundingClientRect();
    const scale = Math.min(box.width / UNITS_W, box.height / UNITS_H);
    const cssW = Math.max(1, Math.floor(UNITS_W * scale));
    const cssH = Math.max(1, Math.floor(UNITS_H * scale));
    this.canvas.style.width = `${cssW}px`;
    this.canvas.style.height = `${cssH}px`;
    this.canvas.width = Math.round(cssW * dpr);
    this.canvas.height = Math.round(cssH * dpr);
    this.layout = layoutFor(this.canvas.width, this.canvas.height);
    // Where the hold and stats column ends, from the parent's left edge (the canvas is centred in
    // it): an overlay that must leave the stats readable, the result, starts there.
    const col = statsColumn(this.layout);
    const left = (box.width - cssW) / 2;
    this.place = { top: (box.height - cssH) / 2, scale: cssW / this.canvas.width };
    const right = left + (col.x + col.width) * this.place.scale;
    parent.style.setProperty('--beside-stats', `${Math.ceil(right)}px`);
    parent.style.setProperty('--stats-left', `${Math.round(left + col.x * this.place.scale)}px`);
    this.statsAt = '';
    if (this.last) this.draw(this.last.snap, this.last.opts);
  }

  draw(snap: Snapshot, opts: DrawOptions): void {
    this.last = { snap, opts };
    if (!this.ctx || !this.layout) return;
    drawGame(this.ctx, snap, this.layout, { cache: this.cache, ...opts });
    // Where the stats begin (higher when rising), from the parent's top: an overlay that sits just
    // above them, the finesse faults, reads it. Written only when it moves, not every frame.
    const at = `${Math.floor(this.place.top + statsTop(this.layout, opts.rising) * this.place.scale)}px`;
    if (at !== this.statsAt) this.canvas.parentElement?.style.setProperty('--stats-top', (this.statsAt = at));
  }

  dispose(): void {
    this.observer?.disconnect();
    this.observer = null;
  }
}
