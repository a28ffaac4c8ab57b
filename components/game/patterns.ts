/**
 * A mark per piece, drawn over its colour in the high-contrast palette: the piece is known by its
 * pattern alone, whatever colours the player can or cannot tell apart. Dark marks on the bright
 * block colours; each is a different shape, not a different shade.
 */
type Mark = (ctx: CanvasRenderingContext2D, x: number, y: number, s: number, w: number) => void;

const bar = (horizontal: boolean): Mark => (ctx, x, y, s, w) =>
  horizontal ? ctx.fillRect(x + w, y + (s - w) / 2, s - 2 * w, w) : ctx.fillRect(x + (s - w) / 2, y + w, w, s - 2 * w);

const diagonal = (rising: boolean): Mark => (ctx, x, y, s, w) => {
  ctx.lineWidth = w;
  ctx.beginPath();
  ctx.moveTo(x + w, rising ? y + s - w : y + w);
  ctx.lineTo(x + s - w, rising ? y + w : y + s - w);
  ctx.stroke();
};

const MARKS: Readonly<Record<string, Mark>> = {
  I: bar(true),
  J: bar(false),
  S: diagonal(true),
  Z: diagonal(false),
  // A hollow square.
  O: (ctx, x, y, s, w) => {
    ctx.lineWidth = w;
    ctx.strokeRect(x + 2 * w, y + 2 * w, s - 4 * w, s - 4 * w);
  },
  // A plus.
  T: (ctx, x, y, s, w) => {
    bar(true)(ctx, x, y, s, w);
    bar(false)(ctx, x, y, s, w);
  },
  // A dot.
  L: (ctx, x, y, s, w) => {
    ctx.beginPath();
    ctx.arc(x + s / 2, y + s / 2, Math.max(w, s / 5), 0, 2 * Math.PI);
    ctx.fill();
  },
  // Garbage: a cross.
  X: (ctx, x, y, s, w) => {
    diagonal(true)(ctx, x, y, s, w);
    diagonal(false)(ctx, x, y, s, w);
  },
};

/** Draws piece `type`'s mark on the block at (x, y) of size `size`; nothing for an unknown letter. */
export function drawMark(ctx: CanvasRenderingContext2D, type: string, x: number, y: number, size: number): void {
  const mark = MARKS[type];
  if (!mark || size < 6) return;
  ctx.save();
  ctx.fillStyle = 'rgba(2, 6, 23, 0.7)';
  ctx.strokeStyle = 'rgba(2, 6, 23, 0.7)';
  mark(ctx, x, y, size, Math.max(1, Math.round(size / 7)));
  ctx.restore();
}
