import { MODE_NAMES } from '@/lib/engine/constants';
import type { Mode } from '@/lib/engine/types';

export const PLAY_MODES: ReadonlyArray<{ mode: Mode; title: string; text: string }> = [
  { mode: 'sprint', title: 'Sprint 40 lines', text: 'Clear 40 lines as fast as you can. Time is the score.' },
  { mode: 'marathon', title: 'Marathon', text: 'Level up every 10 lines, 150 lines to the finish. Survive and score.' },
  { mode: 'ultra', title: 'Ultra 2 minutes', text: 'Two minutes on the clock. Squeeze out every point.' },
];

export function isMode(value: string): value is Mode {
  return (MODE_NAMES as readonly string[]).includes(value);
}
