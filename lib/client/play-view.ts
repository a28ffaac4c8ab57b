import type { PlayPhase } from '@/lib/client/keymap';

/**
 * What a running game asks of the page around it: the site's chrome out of the way (`focused`,
 * through `data-playing` on <html>, which the header's CSS and the field's fit read) and the
 * screen kept awake (`awake`). Any game screen (solo, versus, practice) can hold it through
 * usePlayView (components/site/usePlayView.ts).
 */
export type PlayView = { focused: boolean; awake: boolean };

export const NO_PLAY_VIEW: PlayView = { focused: false, awake: false };

/** The attribute on <html> while a game holds the play view. */
export const PLAY_VIEW_ATTR = 'data-playing';

/** The play view for a game in `phase`, given the one before (a restart's brief load changes nothing on screen). */
export function playViewOf(phase: PlayPhase, was: PlayView): PlayView {
  switch (phase) {
    case 'loading':
      return was;
    case 'countdown':
    case 'playing':
      return { focused: true, awake: true };
    // Paused, the field is hidden and the player may want to go elsewhere: the header comes back
    // (a keyboard reaches its links), and the screen may sleep.
    case 'paused':
    case 'ticketError':
    case 'ended':
      return NO_PLAY_VIEW;
    default:
      return phase satisfies never;
  }
}

// Several screens may hold the view at once for a moment (one unmounting as the next mounts).
let holders = 0;

/** Marks the page as a play view until the returned function is called. */
export function holdPlayView(root: HTMLElement = document.documentElement): () => void {
  holders++;
  root.setAttribute(PLAY_VIEW_ATTR, '');
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (--holders === 0) root.removeAttribute(PLAY_VIEW_ATTR);
  };
}

/** Calls `fn` whenever the page becomes or stops being a play view (the chrome's room changes). */
export function onPlayViewChange(fn: () => void): () => void {
  const observer = new MutationObserver(fn);
  observer.observe(document.documentElement, { attributeFilter: [PLAY_VIEW_ATTR] });
  return () => observer.disconnect();
}

export function isPlayView(): boolean {
  return document.documentElement.hasAttribute(PLAY_VIEW_ATTR);
}
