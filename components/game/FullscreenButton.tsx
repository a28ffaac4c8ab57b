'use client';

import { useSyncExternalStore } from 'react';
import { Button } from '@/components/ui/Button';

const onChange = (fn: () => void) => {
  document.addEventListener('fullscreenchange', fn);
  return () => document.removeEventListener('fullscreenchange', fn);
};
const never = () => () => {};

/**
 * One tap to play on the whole screen: the page, not the canvas, goes full screen, so the game's
 * own bar and the touch pad come along and the field's fit takes the new height. Not shown where
 * the Fullscreen API is missing (iPhone Safari, some embedded browsers) or on the server.
 */
export function FullscreenButton() {
  const supported = useSyncExternalStore(never, () => document.fullscreenEnabled === true, () => false);
  const on = useSyncExternalStore(onChange, () => document.fullscreenElement !== null, () => false);
  if (!supported) return null;
  return (
    <Button
      variant="quiet"
      onClick={(e) => {
        // Kept focused, the button would be pressed again by Space, the hard drop.
        e.currentTarget.blur();
        // A refusal (no user gesture left, a policy) leaves the page as it was.
        (on ? document.exitFullscreen() : document.documentElement.requestFullscreen({ navigationUI: 'hide' })).catch(() => {});
      }}
    >
      {on ? 'Leave full screen' : 'Full screen'}
    </Button>
  );
}
