// zod/mini, as in settings.ts: this schema also runs in the browser.
import { _default, array, boolean, enum as zEnum, gte, int, lte, number, object, type output } from 'zod/mini';

/**
 * Touch controls and sound, saved with the other settings (locally and to the account). Kept in
 * their own file so the on-screen pad's layout data (presets, button positions) has one home.
 */

/** Every action a finger can press: the engine's keys plus pause. */
export const TOUCH_ACTIONS = ['left', 'right', 'softDrop', 'rowDown', 'hardDrop', 'rotateCCW', 'rotateCW', 'rotate180', 'hold', 'pause'] as const;
export type TouchAction = (typeof TOUCH_ACTIONS)[number];

export const TOUCH_LABELS: Record<TouchAction, { glyph: string; name: string }> = {
  left: { glyph: '◀', name: 'Move left' },
  right: { glyph: '▶', name: 'Move right' },
  softDrop: { glyph: '▼', name: 'Soft drop' },
  rowDown: { glyph: '↓1', name: 'Down 1 row' },
  hardDrop: { glyph: '⤓', name: 'Hard drop' },
  rotateCCW: { glyph: '↺', name: 'Rotate counter-clockwise' },
  rotateCW: { glyph: '↻', name: 'Rotate clockwise' },
  // Written out: a third circled arrow beside ↺ and ↻ was read as one of them.
  rotate180: { glyph: '180', name: 'Rotate 180°' },
  hold: { glyph: 'H', name: 'Hold' },
  pause: { glyph: '❚❚', name: 'Pause' },
};

/** A button's centre in % of the pad's width and height, and its size in CSS px (48 at least: a fingertip). */
export type ButtonPlace = { x: number; y: number; size: number };
export const BUTTON_SIZE_MIN = 48;
export const BUTTON_SIZE_MAX = 96;

/**
 * The two starting layouts, for a right-handed player. "classic": a direction pad on the left,
 * rotations and drops on the right, like a handheld. "split": moves under the left thumb in a
 * row, rotations under the right, hard drop in the middle.
 */
export const TOUCH_PRESETS = {
  classic: {
    label: 'Classic pad',
    buttons: {
      left: { x: 10, y: 55, size: 60 },
      right: { x: 34, y: 55, size: 60 },
      softDrop: { x: 22, y: 85, size: 56 },
      // Beside soft drop, clear of every other button on a 360 px wide phone (touch-layout.test.ts).
      rowDown: { x: 44, y: 85, size: 48 },
      hardDrop: { x: 22, y: 22, size: 56 },
      rotateCCW: { x: 66, y: 70, size: 60 },
      rotateCW: { x: 89, y: 55, size: 60 },
      rotate180: { x: 78, y: 22, size: 48 },
      hold: { x: 56, y: 22, size: 48 },
      pause: { x: 96, y: 14, size: 48 },
    },
  },
  split: {
    label: 'Split',
    buttons: {
      left: { x: 8, y: 70, size: 60 },
      right: { x: 26, y: 70, size: 60 },
      softDrop: { x: 17, y: 25, size: 52 },
      // Between hold above and the move and hard-drop buttons below.
      rowDown: { x: 38, y: 50, size: 48 },
      hardDrop: { x: 50, y: 70, size: 64 },
      rotateCCW: { x: 74, y: 70, size: 60 },
      rotateCW: { x: 92, y: 70, size: 60 },
      rotate180: { x: 83, y: 25, size: 52 },
      hold: { x: 38, y: 25, size: 48 },
      pause: { x: 62, y: 25, size: 48 },
    },
  },
} as const satisfies Record<string, { label: string; buttons: Record<TouchAction, ButtonPlace> }>;
export type TouchPresetId = keyof typeof TOUCH_PRESETS;

export function presetButtons(id: TouchPresetId): Record<TouchAction, ButtonPlace> {
  const b = TOUCH_PRESETS[id].buttons;
  return Object.fromEntries(TOUCH_ACTIONS.map((a) => [a, { ...b[a] }])) as Record<TouchAction, ButtonPlace>;
}

const pct = number().check(gte(0), lte(100));
const place = object({ x: pct, y: pct, size: int().check(gte(BUTTON_SIZE_MIN), lte(BUTTON_SIZE_MAX)) });

export const touchSchema = object({
  /** `auto`: on devices whose main pointer is a finger; `on`/`off` override that. */
  show: _default(zEnum(['auto', 'on', 'off']), 'auto'),
  buttons: _default(
    object(Object.fromEntries(TOUCH_ACTIONS.map((a) => [a, _default(place, () => presetButtons('classic')[a])])) as Record<TouchAction, ReturnType<typeof _default<typeof place>>>),
    () => presetButtons('classic'),
  ),
  /** 20–100 %: how visible the buttons are (they stay pressable at any value). */
  opacity: _default(int().check(gte(20), lte(100)), 70),
  /** Left-handed: the layout mirrored left to right. */
  mirror: _default(boolean(), false),
  /** A short vibration on each press, where the browser supports it. */
  haptics: _default(boolean(), true),
  /** Gestures on the field: tap rotates, drag moves, flick down drops, flick up holds. */
  gestures: _default(boolean(), false),
  /** 1–10: how far a finger travels per cell (higher = shorter). */
  sensitivity: _default(int().check(gte(1), lte(10)), 5),
});

export const SOUND_EFFECTS = [
  'move', 'rotate', 'softDrop', 'hardDrop', 'lock', 'clear', 'tspin', 'combo', 'b2b', 'perfectClear', 'levelUp', 'countdown', 'gameOver',
] as const;
export type SoundEffect = (typeof SOUND_EFFECTS)[number];

export const SOUND_LABELS: Record<SoundEffect, string> = {
  move: 'Move', rotate: 'Rotate', softDrop: 'Soft drop', hardDrop: 'Hard drop', lock: 'Lock', clear: 'Line clear',
  tspin: 'T-spin', combo: 'Combo', b2b: 'Back-to-back', perfectClear: 'Perfect clear', levelUp: 'Level up',
  countdown: 'Countdown', gameOver: 'Game over / finish',
};

export const soundSchema = object({
  /** 0–100 %. */
  volume: _default(int().check(gte(0), lte(100)), 60),
  muted: _default(boolean(), false),
  /** Effects turned off one by one. */
  off: _default(array(zEnum(SOUND_EFFECTS)), () => []),
});

export type TouchSettings = output<typeof touchSchema>;
export type SoundSettings = output<typeof soundSchema>;
