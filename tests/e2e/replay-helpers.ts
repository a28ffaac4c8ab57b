import type { Locator } from '@playwright/test';
import { PIECES, ROTATIONS, type Replay, type Snapshot } from '@/lib/engine';
import { CELLS } from '@/lib/engine/pieces';
import { straightRun } from '@/tests/support/replays';

/**
 * An independent run of the engine (in the test process, not the browser) to `tick`: its hash,
 * snapshot, and the ticks on which new pieces appeared (one after each lock).
 */
export function engineAt(replay: Replay, tick: number): { hash: string; snap: Snapshot; pieceTicks: number[] } {
  const pieceTicks: number[] = [];
  const game = straightRun(replay, tick, (events, t) => {
    if (events.some((e) => e.type === 'lock')) pieceTicks.push(t + 1);
  });
  return { hash: game.hash(), snap: game.snapshot(), pieceTicks };
}

/** The visible field the engine says is filled: locked cells and the falling piece, '#' or '.', top row first. */
export function expectedField(snap: Snapshot): string[] {
  const rows = snap.board.map((r) => [...r].map((c) => (c === '.' ? '.' : '#')));
  const a = snap.active;
  if (a) {
    const slot = PIECES.indexOf(a.type) * 4 + ROTATIONS.indexOf(a.rotation);
    for (let k = 0; k < 8; k += 2) {
      const x = a.x + CELLS[slot * 8 + k]!;
      const y = a.y + CELLS[slot * 8 + k + 1]!;
      if (y < 20) rows[19 - y]![x] = '#';
    }
  }
  return rows.map((r) => r.join(''));
}

/**
 * The field as drawn on the canvas: the centre pixel of each of the 10 × 20 cells, '#' when it
 * has a piece colour of the standard palette (the ghost is translucent, the grid runs along the
 * edges). Geometry as in components/game/draw.ts with the default display settings.
 */
export async function renderedField(canvas: Locator): Promise<string[]> {
  return canvas.evaluate((el: HTMLCanvasElement) => {
    const colours = ['#22d3ee', '#facc15', '#a855f7', '#22c55e', '#ef4444', '#3b82f6', '#f97316', '#64748b'].map((h) => parseInt(h.slice(1), 16));
    const ctx = el.getContext('2d')!;
    const cell = Math.max(4, Math.floor(Math.min(el.width / 21, el.height / 23)));
    const ox = Math.floor((el.width - cell * 21) / 2);
    const oy = Math.floor((el.height - cell * 23) / 2);
    const fx = ox + Math.round(5.5 * cell);
    const top = oy + 2 * cell + Math.round(0.5 * cell);
    const out: string[] = [];
    for (let r = 0; r < 20; r++) {
      let row = '';
      for (let x = 0; x < 10; x++) {
        const [red, green, blue] = ctx.getImageData(fx + x * cell + (cell >> 1), top + r * cell + (cell >> 1), 1, 1).data;
        row += colours.includes((red! << 16) | (green! << 8) | blue!) ? '#' : '.';
      }
      out.push(row);
    }
    return out;
  });
}
