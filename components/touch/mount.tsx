'use client';

import { createRoot, type Root } from 'react-dom/client';
import type { Settings } from '@/lib/validations/settings';
import { TouchPad, type PressFn } from '@/components/touch/TouchPad';
import { GestureSurface } from '@/components/touch/gesture-surface';

/**
 * The touch controls of one play page, outside the page's React tree (they load only on touch
 * devices, after the game): the pad goes after the field, gestures listen on the canvas.
 */
export function mountTouch(root: HTMLElement, canvas: HTMLCanvasElement, press: PressFn) {
  const host = document.createElement('div');
  root.append(host);
  root.dataset.touch = 'on';
  const reactRoot: Root = createRoot(host);
  const gestures = new GestureSurface(canvas, (key, down, t) => press(key, 'gesture', down, t));
  return {
    update(settings: Settings) {
      reactRoot.render(<TouchPad touch={settings.touch} press={press} />);
      gestures.configure(settings.touch.gestures, settings.touch.sensitivity);
    },
    dispose() {
      gestures.dispose();
      reactRoot.unmount();
      host.remove();
      delete root.dataset.touch;
    },
  };
}
