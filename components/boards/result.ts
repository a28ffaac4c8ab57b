import { formatTime } from '@/components/game/draw';
import type { Mode } from '@/lib/engine';

/** The number a board ranks by, as players read it: a time for Sprint, points otherwise. */
export function formatResult(mode: Mode, game: { ticks: number; score: number }): string {
  return mode === 'sprint' ? formatTime(game.ticks) : game.score.toLocaleString('en-US');
}

/** Engine rates are integers × 1000. */
export function formatRate(milli: number): string {
  return (milli / 1000).toFixed(2);
}

export function formatDate(iso: string): string {
  return iso.slice(0, 10);
}

export const MODE_LABELS: Record<Mode, string> = { sprint: 'Sprint 40L', marathon: 'Marathon', ultra: 'Ultra 2:00' };
