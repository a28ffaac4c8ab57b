import { cheeseOf, COLS, drillOf, goalOf, MODES, placedCells, VISIBLE_ROWS as ROWS, type AnyMode, type DrillRules, type ModeRules, type PieceType, type Snapshot } from '@/lib/engine';
import { CALLOUT_MS, FLASH_MS, LOCK_MS, type Effects } from '@/components/game/effects';
import { formatLines, formatPps, formatTime } from '@/lib/ui/format';
import type { DisplaySettings } from '@/lib/validations/settings';
import { reduceMotion } from '@/lib/client/motion';
import { PALETTES, PATTERNED, THEME, type Palette } from '@/components/game/palette';

import { drawMark } from '@/components/game/patterns';

/** Rows shown above the visible field (the engine spawns pieces in the two above it). */
const BUFFER = 2;
/** The whole picture in cells: hold + stats | field | next queue. */
export const UNITS_W = 21;
export const UNITS_H = 23;
const SIDE_X = 0.5;
const FIELD_X = 5.5;
const NEXT_X = 16;

export interface DrawOptions {
  palette: Palette;
  /** Any mode: a versus field draws as a solo one (its line goal, its clock). */
  mode: AnyMode;
  ghost: boolean;
  grid: boolean;
  /** Field drawn upside down: blocks rise from the bottom. */
  rising: boolean;
  reducedMotion: boolean;
  /** Paused or counting down: the field, hold and queue are not shown. */
  hidden: boolean;
  effects?: Effects | null;
  /** Wall time in ms, for effects. */
  now: number;
  /** Keeps the parts that change per lock pre-rendered; omit to draw everything each time. */
  cache?: RenderCache | null;
}

/**
 * The draw options for a frame, from the player's display settings: the one place the live game
 * and the replay viewer turn settings into what the renderer needs.
 */
export function drawOptions(display: DisplaySettings, mode: AnyMode, frame: { now: number; hidden?: boolean; effects?: Effects | null }): DrawOptions {
  return {
    palette: PALETTES[display.palette],
    mode,
    ghost: display.ghost,
    grid: display.grid,
    rising: display.rising,
    reducedMotion: reduceMotion(display.reducedMotion),
    hidden: frame.hidden ?? false,
    effects: frame.effects ?? null,
    now: frame.now,
  };
}

interface Layer {
  canvas: HTMLCanvasElement | null;
  key: string;
  palette: Palette | null;
}

/**
 * Two offscreen layers redrawn only when their content changes (about once per piece): the
 * backdrop (panels, hold, queue, stats, border) and the field (grid, locked cells). A frame is then
 * two blits, the falling piece, the clock and any effects.
 */
export interface RenderCache {
  backdrop: Layer;
  field: Layer;
}

export function createRenderCache(): RenderCache {
  return { backdrop: { canvas: null, key: '', palette: null }, field: { canvas: null, key: '', palette: null } };
}

/** Returns the layer's canvas, redrawn by `paint` when the key or palette changed. Null outside a DOM. */
function layer(l: Layer, key: string, palette: Palette, w: number, h: number, paint: (ctx: CanvasRenderingContext2D) => void): HTMLCanvasElement | null {
  if (l.canvas && l.key === key && l.palette === palette) return l.canvas;
  if (typeof document === 'undefined') return null;
  const canvas = l.canvas ?? document.createElement('canvas');
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  paint(ctx);
  Object.assign(l, { canvas, key, palette });
  return canvas;
}

export interface Layout {
  /** Cell size in device pixels (a whole number, so edges stay sharp). */
  cell: number;
  width: number;
  height: number;
  ox: number;
  oy: number;
}

/** The largest whole-pixel cell that fits a canvas of this many device pixels. */
export function layoutFor(width: number, height: number): Layout {
  const cell = Math.max(4, Math.floor(Math.min(width / UNITS_W, height / UNITS_H)));
  return { cell, width, height, ox: Math.floor((width - cell * UNITS_W) / 2), oy: Math.floor((height - cell * UNITS_H) / 2) };
}

/** The hold and stats column left of the field, in the layout's pixels: what an overlay must leave uncovered. */
export function statsColumn(layout: Layout): { x: number; y: number; width: number; height: number } {
  const { cell, ox, oy } = layout;
  return { x: ox + Math.round(SIDE_X * cell), y: oy, width: Math.round(4.5 * cell), height: UNITS_H * cell };
}

/** Canvas y of the field's top edge: normal, the spawn rows above it; rising, below it. */
function fieldTopOf(layout: Layout, rising: boolean): number {
  return layout.oy + (rising ? 0 : BUFFER * layout.cell) + Math.round(0.5 * layout.cell);
}

/**
 * Canvas y where the stats begin (SCORE's label), below the hold and the callout: the free space
 * above it is where an overlay beside the stats goes (the finesse faults).
 */
export function statsTop(layout: Layout, rising: boolean): number {
  return statRows(layout, fieldTopOf(layout, rising)).rows[0]!;
}

/** The piece letter to mark blocks with, when the palette draws patterns. */
function markOf(o: DrawOptions, type: string): string | undefined {
  return PATTERNED.has(o.palette) ? type : undefined;
}

function block(ctx: CanvasRenderingContext2D, x: number, y: number, size: number, color: string, mark?: string): void {
  ctx.fillStyle = color;
  ctx.fillRect(x, y, size, size);
  // A light top edge and dark bottom edge: reads as a block at any size, costs two rects.
  const edge = Math.max(1, Math.round(size / 8));
  ctx.fillStyle = 'rgba(255,255,255,0.28)';
  ctx.fillRect(x, y, size, edge);
  ctx.fillStyle = 'rgba(0,0,0,0.25)';
  ctx.fillRect(x, y + size - edge, size, edge);
  if (mark) drawMark(ctx, mark, x, y, size);
}

/** Draws one frame of a game: used by the live game and the replay viewer alike. */
export function drawGame(ctx: CanvasRenderingContext2D, snap: Snapshot, layout: Layout, o: DrawOptions): void {
  const { cell, ox } = layout;
  const fx = ox + Math.round(FIELD_X * cell);
  const fieldTop = fieldTopOf(layout, o.rising);
  const fw = COLS * cell;
  const fh = ROWS * cell;
  /** Canvas y of the top edge of engine row py (0 = bottom row). */
  const rowY = (py: number) => (o.rising ? fieldTop + py * cell : fieldTop + (ROWS - 1 - py) * cell);

  const backdropKey = `${layout.width}x${layout.height}|${o.hidden ? 1 : 0}|${o.rising ? 1 : 0}|${o.mode}|${snap.hold}|${snap.holdUsed ? 1 : 0}|${snap.next.join('')}|${snap.score}|${snap.lines}|${snap.level}`;
  const backdrop = o.cache
    ? layer(o.cache.backdrop, backdropKey, o.palette, layout.width, layout.height, (c) => drawBackdrop(c, snap, o, layout, fieldTop))
    : null;
  if (backdrop) ctx.drawImage(backdrop, 0, 0);
  else drawBackdrop(ctx, snap, o, layout, fieldTop);

  if (!o.hidden) {
    const fieldKey = `${cell}|${o.grid ? 1 : 0}|${o.rising ? 1 : 0}|${snap.board.join('')}`;
    const field = o.cache ? layer(o.cache.field, fieldKey, o.palette, fw, fh, (c) => drawField(c, snap, o, 0, 0, cell)) : null;
    if (field) ctx.drawImage(field, fx, fieldTop);
    else drawField(ctx, snap, o, fx, fieldTop, cell);
    const inView = ([, y]: [number, number]) => y < ROWS + BUFFER;
    if (o.ghost && snap.ghost && snap.active && snap.ghost.y !== snap.active.y) {
      ctx.globalAlpha = 0.28;
      for (const [x, y] of placedCells(snap.ghost).filter(inView)) block(ctx, fx + x * cell, rowY(y), cell, o.palette[snap.ghost.type]!, markOf(o, snap.ghost.type));
      ctx.globalAlpha = 1;
    }
    if (snap.active) {
      for (const [x, y] of placedCells(snap.active).filter(inView)) block(ctx, fx + x * cell, rowY(y), cell, o.palette[snap.active.type]!, markOf(o, snap.active.type));
    }
    drawEffects(ctx, o, fx, fw, cell, rowY);
  }
  drawLive(ctx, snap, o, layout, fieldTop);
}

/** Everything that changes at most once per piece. */
function drawBackdrop(ctx: CanvasRenderingContext2D, snap: Snapshot, o: DrawOptions, layout: Layout, fieldTop: number): void {
  const { cell, ox } = layout;
  const fx = ox + Math.round(FIELD_X * cell);
  ctx.fillStyle = THEME.background;
  ctx.fillRect(0, 0, layout.width, layout.height);
  ctx.fillStyle = THEME.field;
  ctx.fillRect(fx, fieldTop, COLS * cell, ROWS * cell);
  const lw = Math.max(1, Math.round(cell / 12));
  ctx.strokeStyle = THEME.border;
  ctx.lineWidth = lw;
  ctx.strokeRect(fx - lw / 2, fieldTop - lw / 2, COLS * cell + lw, ROWS * cell + lw);
  drawSide(ctx, snap, o, layout, fieldTop);
}

function drawField(ctx: CanvasRenderingContext2D, snap: Snapshot, o: DrawOptions, x0: number, y0: number, cell: number): void {
  ctx.fillStyle = THEME.field;
  ctx.fillRect(x0, y0, COLS * cell, ROWS * cell);
  if (o.grid) {
    ctx.fillStyle = THEME.grid;
    for (let c = 1; c < COLS; c++) ctx.fillRect(x0 + c * cell, y0, 1, ROWS * cell);
    for (let r = 1; r < ROWS; r++) ctx.fillRect(x0, y0 + r * cell, COLS * cell, 1);
  }
  snap.board.forEach((row, i) => {
    // Row i of the text form is engine row 19 - i; rising puts row 0 at the top.
    const y = o.rising ? ROWS - 1 - i : i;
    for (let x = 0; x < COLS; x++) {
      const ch = row[x]!;
      if (ch !== '.') block(ctx, x0 + x * cell, y0 + y * cell, cell, o.palette[ch] ?? THEME.label, markOf(o, ch));
    }
  });
}

function drawEffects(
  ctx: CanvasRenderingContext2D, o: DrawOptions, fx: number, fw: number, cell: number, rowY: (py: number) => number,
): void {
  const e = o.effects;
  if (!e || o.reducedMotion) return;
  if (e.locked && o.now - e.locked.at < LOCK_MS) {
    ctx.fillStyle = `rgba(255,255,255,${0.35 * (1 - (o.now - e.locked.at) / LOCK_MS)})`;
    for (const [x, y] of e.locked.cells) if (y < ROWS) ctx.fillRect(fx + x * cell, rowY(y), cell, cell);
  }
  if (e.clear && o.now - e.clear.at < FLASH_MS) {
    ctx.fillStyle = `rgba(255,255,255,${0.55 * (1 - (o.now - e.clear.at) / FLASH_MS)})`;
    for (const y of e.clear.rows) if (y < ROWS) ctx.fillRect(fx, rowY(y), fw, cell);
  }
}

function text(ctx: CanvasRenderingContext2D, s: string, x: number, y: number, size: number, color: string, weight = 600, maxWidth?: number): void {
  ctx.font = `${weight} ${size}px ui-sans-serif, system-ui, sans-serif`;
  ctx.fillStyle = color;
  ctx.fillText(s, x, y, maxWidth);
}

function miniPiece(ctx: CanvasRenderingContext2D, type: PieceType, cx: number, cy: number, size: number, color: string, mark?: string): void {
  const cells = placedCells({ type, rotation: '0', x: 0, y: 0 });
  const xs = cells.map(([x]) => x);
  const ys = cells.map(([, y]) => y);
  const w = Math.max(...xs) - Math.min(...xs) + 1;
  const h = Math.max(...ys) - Math.min(...ys) + 1;
  const left = Math.round(cx - (w * size) / 2);
  const top = Math.round(cy - (h * size) / 2);
  for (const [x, y] of cells) block(ctx, left + (x - Math.min(...xs)) * size, top + (Math.max(...ys) - y) * size, size, color, mark);
}

function drawSide(ctx: CanvasRenderingContext2D, snap: Snapshot, o: DrawOptions, layout: Layout, top: number): void {
  const { cell, ox } = layout;
  const mini = Math.max(3, Math.floor(cell * 0.8));
  const label = Math.max(9, Math.round(cell * 0.6));
  ctx.textBaseline = 'top';
  const sideX = ox + Math.round(SIDE_X * cell);
  const nextX = ox + Math.round(NEXT_X * cell);
  const boxW = statsColumn(layout).width;

  ctx.textAlign = 'left';
  text(ctx, 'HOLD', sideX, top, label, THEME.label);
  text(ctx, 'NEXT', nextX, top, label, THEME.label);
  if (!o.hidden) {
    if (snap.hold) {
      const color = snap.holdUsed ? THEME.label : o.palette[snap.hold]!;
      miniPiece(ctx, snap.hold, sideX + boxW / 2, top + cell * 2.2, mini, color, markOf(o, snap.hold));
    }
    snap.next.forEach((p, i) => miniPiece(ctx, p, nextX + boxW / 2, top + cell * (2.2 + i * 3), mini, o.palette[p]!, markOf(o, p)));
  }

  const rules = MODES[o.mode];
  const stats: Array<[string, string | null]> = [
    ['SCORE', snap.score.toLocaleString('en-US')],
    // Dig counts its garbage rows dug out; the others their lines.
    [cheeseOf(rules) ? 'DUG' : 'LINES', formatLines(snap.progress, goalOf(rules))],
    countRow(rules, snap),
    // Drawn every frame by drawLive.
    ['TIME', null],
    ['PPS', null],
  ];
  const { value, rows } = statRows(layout, top);
  stats.forEach(([k, v], i) => {
    text(ctx, k, sideX, rows[i]!, label, THEME.label);
    if (v !== null) text(ctx, v, sideX, rows[i]! + label * 1.2, value, THEME.text, 700);
  });
}

/** What a drill counts, in the level's place (a drill's level never moves): TSDs against the goal, perfect clears. */
const COUNT_LABELS = { tsd: 'TSDS', perfect: 'PCS' } as const satisfies Record<NonNullable<DrillRules['counts']>, string>;

function countRow(rules: ModeRules, snap: Snapshot): [string, string] {
  const drill = drillOf(rules);
  return drill.counts === null ? ['LEVEL', String(snap.level)] : [COUNT_LABELS[drill.counts], formatLines(snap.clears, drill.goal)];
}

function statRows(layout: Layout, top: number): { label: number; value: number; rows: number[] } {
  const { cell } = layout;
  const label = Math.max(9, Math.round(cell * 0.6));
  const value = Math.max(11, Math.round(cell * 0.95));
  const rows: number[] = [];
  for (let i = 0, y = top + cell * 9; i < 5; i++, y += label * 1.2 + value * 1.5) rows.push(y);
  return { label, value, rows };
}

/** What changes every frame: the clock, pieces per second, and a callout. */
function drawLive(ctx: CanvasRenderingContext2D, snap: Snapshot, o: DrawOptions, layout: Layout, top: number): void {
  const { cell, ox } = layout;
  const sideX = ox + Math.round(SIDE_X * cell);
  const boxW = Math.round(4.5 * cell);
  const rules = MODES[o.mode];
  const time = rules.timeLimitTicks > 0 ? formatTime(Math.max(0, rules.timeLimitTicks - snap.tick)) : formatTime(snap.tick);
  const { label, value, rows } = statRows(layout, top);
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  text(ctx, time, sideX, rows[3]! + label * 1.2, value, THEME.text, 700);
  text(ctx, formatPps(snap.pieces, snap.tick), sideX, rows[4]! + label * 1.2, value, THEME.text, 700);

  const c = o.effects?.callout;
  if (c && !o.hidden && o.now - c.at < CALLOUT_MS) {
    ctx.globalAlpha = o.reducedMotion ? 1 : Math.min(1, 2 * (1 - (o.now - c.at) / CALLOUT_MS));
    const cy = top + cell * 4.8;
    text(ctx, c.text, sideX, cy, Math.round(cell * 0.7), '#fde68a', 800, boxW);
    if (c.detail) text(ctx, c.detail, sideX, cy + cell, Math.round(cell * 0.6), '#fbbf24', 700, boxW);
    ctx.globalAlpha = 1;
  }
}
