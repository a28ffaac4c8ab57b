import type { GameEvent } from '@/lib/engine';

/** How long each kind of feedback lasts, in milliseconds of wall time. */
export const FLASH_MS = 180;
export const LOCK_MS = 120;
export const CALLOUT_MS = 1400;

export interface Callout {
  text: string;
  detail: string;
  at: number;
}

const CLEAR_NAMES = ['', 'SINGLE', 'DOUBLE', 'TRIPLE', 'QUAD'] as const;

/** The words for one lock, or null when it deserves no callout. */
export function calloutFor(e: Extract<GameEvent, { type: 'lock' }>): { text: string; detail: string } | null {
  const parts: string[] = [];
  if (e.spin !== 'none') {
    const spin = `${e.piece}-SPIN${e.spin === 'mini' ? ' MINI' : ''}`;
    parts.push(e.linesCleared > 0 ? `${spin} ${CLEAR_NAMES[e.linesCleared] ?? ''}`.trim() : spin);
  } else if (e.linesCleared === 4) parts.push('TETRIS');
  const detail: string[] = [];
  if (e.b2b) detail.push('B2B');
  if (e.combo >= 1) detail.push(`${e.combo} COMBO`);
  if (e.perfectClear) {
    parts.unshift('PERFECT CLEAR');
  }
  if (parts.length === 0 && detail.length === 0) return null;
  return { text: parts.join(' · ') || detail.shift()!, detail: detail.join(' · ') };
}

/**
 * Short-lived visual feedback driven only by engine events: a flash over cleared rows, a glint on
 * the cells that just locked, and a callout for special clears.
 */
export class Effects {
  clear: { rows: number[]; at: number } | null = null;
  locked: { cells: Array<[number, number]>; at: number } | null = null;
  callout: Callout | null = null;

  push(events: readonly GameEvent[], now: number): void {
    for (const e of events) {
      if (e.type !== 'lock') continue;
      this.locked = { cells: e.cells, at: now };
      if (e.linesCleared > 0) this.clear = { rows: e.clearedRows, at: now };
      const c = calloutFor(e);
      if (c) this.callout = { ...c, at: now };
    }
  }

  reset(): void {
    this.clear = null;
    this.locked = null;
    this.callout = null;
  }
}
