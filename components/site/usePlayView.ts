'use client';

import { useEffect } from 'react';
import { holdPlayView, type PlayView } from '@/lib/client/play-view';
import { keepScreenAwake } from '@/lib/client/wake-lock';

/**
 * A game screen's hold on the page while its game runs: the site's header gives way (CSS keyed on
 * <html data-playing>, and the field's fit takes the room) and the screen stays awake. Each is let
 * go when the view says so and when the screen unmounts. Solo play uses it; versus and practice
 * may, with `playViewOf` (lib/client/play-view.ts) or their own booleans.
 */
export function usePlayView({ focused, awake }: PlayView): void {
  useEffect(() => (focused ? holdPlayView() : undefined), [focused]);
  useEffect(() => {
    if (!awake) return;
    // Missing from older browsers and from pages not served over HTTPS.
    return keepScreenAwake('wakeLock' in navigator ? navigator.wakeLock : undefined, document);
  }, [awake]);
}
