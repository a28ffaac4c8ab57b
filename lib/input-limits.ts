import { TICKS_PER_SECOND } from '@/lib/engine';

/**
 * Humanly possible input, shared by the server (which refuses replays beyond it) and the
 * browser (which must never record a replay beyond it, even after a stalled frame). The fastest
 * players sustain ~15 key presses a second; chords put at most a few edges on one tick (release
 * one direction, press the other, rotate, hard drop: four). These bounds are well above both.
 */
export const HUMAN_INPUT = {
  maxEventsPerTick: 6,
  windowTicks: TICKS_PER_SECOND,
  maxKeyDownsPerWindow: 40,
} as const;
