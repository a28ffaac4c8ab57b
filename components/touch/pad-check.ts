import { TOUCH_ACTIONS, type ButtonPlace, type TouchAction, type TouchSettings } from '@/lib/validations/touch-sound';
import { placeFor } from '@/components/touch/layout';
import { UNITS_H, UNITS_W } from '@/components/game/draw';
import { MARGIN } from '@/components/game/fit';

/** The pad's height upright (globals.css `.touch-pad`: 13rem) and its share of the height on its side (70dvh). */
const UPRIGHT_PAD_PX = 13 * 16;
const SIDE_PAD_SHARE = 0.7;
/** On its side the field's box is the screen's height less a margin above and below (fit.ts), drawn at the renderer's aspect. */
const SIDE_FIELD_MARGIN_PX = 2 * MARGIN;

export type Orientation = 'upright' | 'side';

/**
 * What a layout does on a given phone that its player did not see in the editor: two buttons on
 * top of each other, or, on its side, a button over the field in the middle of the screen. (A
 * button placed past the edge is not one: the pad moves it in until it is whole on the screen.)
 */
export type PadProblem =
  | { kind: 'overlap'; action: TouchAction; other: TouchAction; orientation: Orientation }
  | { kind: 'field'; action: TouchAction };

type Spot = { action: TouchAction; x: number; y: number; r: number };

/** Where each button lands on a pad of this size, in px, as TouchPad draws it: moved in until whole. */
function spots(touch: TouchSettings, pad: { width: number; height: number }, landscape: boolean): Spot[] {
  return TOUCH_ACTIONS.map((action) => {
    const p: ButtonPlace = placeFor(touch.buttons[action], touch.mirror, landscape);
    const r = p.size / 2;
    const x = Math.min(Math.max((p.x / 100) * pad.width, r), pad.width - r);
    const y = Math.min(Math.max((p.y / 100) * pad.height, r), pad.height - r);
    return { action, x, y, r };
  });
}

function problemsOn(touch: TouchSettings, screen: { width: number; height: number }, orientation: Orientation): PadProblem[] {
  const landscape = orientation === 'side';
  const pad = { width: screen.width, height: landscape ? screen.height * SIDE_PAD_SHARE : UPRIGHT_PAD_PX };
  const placed = spots(touch, pad, landscape);
  // On its side the field takes the screen's height, centred; the pad lies over the whole screen.
  const fieldWidth = ((screen.height - SIDE_FIELD_MARGIN_PX) * UNITS_W) / UNITS_H;
  const field = { left: (screen.width - fieldWidth) / 2, right: (screen.width + fieldWidth) / 2 };
  const out: PadProblem[] = [];
  for (const [i, a] of placed.entries()) {
    for (const b of placed.slice(i + 1)) {
      if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r) out.push({ kind: 'overlap', action: a.action, other: b.action, orientation });
    }
    if (landscape && a.x + a.r > field.left && a.x - a.r < field.right) out.push({ kind: 'field', action: a.action });
  }
  return out;
}

/** Every problem of a layout on a phone of this size (CSS px, either way up), upright then on its side. */
export function padProblems(touch: TouchSettings, phone: { width: number; height: number }): PadProblem[] {
  const [short, long] = [Math.min(phone.width, phone.height), Math.max(phone.width, phone.height)];
  return [...problemsOn(touch, { width: short, height: long }, 'upright'), ...problemsOn(touch, { width: long, height: short }, 'side')];
}
