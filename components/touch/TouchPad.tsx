'use client';

import { useSyncExternalStore, type PointerEvent as ReactPointerEvent } from 'react';
import { TOUCH_ACTIONS, TOUCH_LABELS, type ButtonPlace, type TouchAction, type TouchSettings } from '@/lib/validations/touch-sound';
import { placeFor, within } from '@/components/touch/layout';

export type PressFn = (action: TouchAction, finger: string, down: boolean, t: number) => void;

const LANDSCAPE = '(orientation: landscape)';
const subscribe = (fn: () => void) => {
  const m = window.matchMedia(LANDSCAPE);
  m.addEventListener('change', fn);
  return () => m.removeEventListener('change', fn);
};
const landscapeNow = () => window.matchMedia(LANDSCAPE).matches;

/**
 * The on-screen buttons. Each finger is its own key (`touch<pointerId>`) and holds its button
 * while it stays down (pointer capture: sliding off does not let go), so DAS, ARR and soft drop
 * behave as with a keyboard, and several fingers press several buttons at once.
 */
export function TouchPad({ touch, press }: { touch: TouchSettings; press: PressFn }) {
  const landscape = useSyncExternalStore(subscribe, landscapeNow, () => false);
  return (
    <div data-testid="touch-pad" className="touch-pad" style={{ opacity: touch.opacity / 100 }}>
      {TOUCH_ACTIONS.map((action) => (
        <PadButton key={action} action={action} place={placeFor(touch.buttons[action], touch.mirror, landscape)} haptics={touch.haptics} press={press} />
      ))}
    </div>
  );
}

function PadButton({ action, place, haptics, press }: { action: TouchAction; place: ButtonPlace; haptics: boolean; press: PressFn }) {
  const label = TOUCH_LABELS[action];
  const finger = (e: ReactPointerEvent) => `touch${e.pointerId}`;
  const up = (e: ReactPointerEvent) => press(action, finger(e), false, e.timeStamp);
  return (
    <button
      type="button"
      // Not in the tab order: the keyboard has its own keys; these are for fingers.
      tabIndex={-1}
      aria-label={label.name}
      data-action={action}
      className="touch-button"
      style={{ left: within(place.x, place.size), top: within(place.y, place.size), width: place.size, height: place.size }}
      onPointerDown={(e) => {
        e.preventDefault();
        e.currentTarget.setPointerCapture(e.pointerId);
        press(action, finger(e), true, e.timeStamp);
        if (haptics) navigator.vibrate?.(8);
      }}
      onPointerUp={up}
      onPointerCancel={up}
      onLostPointerCapture={up}
      onContextMenu={(e) => e.preventDefault()}
    >
      <span aria-hidden="true">{label.glyph}</span>
    </button>
  );
}
