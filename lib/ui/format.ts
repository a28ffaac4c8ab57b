import { TICKS_PER_SECOND } from '@/lib/engine/constants';

// How numbers read on every page, server-rendered or in the browser: no React, no server code.

export function formatTime(ticks: number): string {
  const ms = Math.floor((ticks * 1000) / TICKS_PER_SECOND);
  const m = Math.floor(ms / 60000);
  const s = Math.floor((ms % 60000) / 1000);
  const cs = Math.floor((ms % 1000) / 10);
  return `${m}:${String(s).padStart(2, '0')}.${String(cs).padStart(2, '0')}`;
}

export function formatPps(pieces: number, ticks: number): string {
  return ticks === 0 ? '0.00' : ((pieces * TICKS_PER_SECOND) / ticks).toFixed(2);
}

/** Engine rates are integers × 1000. */
export function formatRate(milli: number): string {
  return (milli / 1000).toFixed(2);
}

export function formatDate(iso: string): string {
  return iso.slice(0, 10);
}

/** Lines against a goal (0: none). A goal is met, not passed: the last clear of a Sprint may reach 41 or 43, which "41/40" made read as a bug. */
export function formatLines(lines: number, goal: number): string {
  return goal > 0 ? `${Math.min(lines, goal)}/${goal}` : String(lines);
}

export function formatPoints(points: number): string {
  return points.toLocaleString('en-US');
}

/** "2d 03:04:05" until a moment, for a board's reset countdown. */
export function formatCountdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(s / 86_400);
  const clock = `${pad(Math.floor((s % 86_400) / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}
