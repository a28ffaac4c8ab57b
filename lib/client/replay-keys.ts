/** What a viewer control does; the buttons and the keyboard share these. */
export type ReplayAction =
  | 'toggle' | 'tickBack' | 'tickForward' | 'pieceBack' | 'pieceForward'
  | 'back5' | 'forward5' | 'start' | 'end' | 'slower' | 'faster';

/** Keyboard shortcuts as data: matched on KeyboardEvent.key, listed in the viewer as they are here. */
export const REPLAY_SHORTCUTS: ReadonlyArray<{ keys: readonly string[]; label: string; action: ReplayAction }> = [
  { keys: [' ', 'k'], label: 'Play / pause', action: 'toggle' },
  { keys: [','], label: 'Back one tick', action: 'tickBack' },
  { keys: ['.'], label: 'Forward one tick', action: 'tickForward' },
  { keys: ['ArrowLeft'], label: 'Previous piece', action: 'pieceBack' },
  { keys: ['ArrowRight'], label: 'Next piece', action: 'pieceForward' },
  { keys: ['j'], label: 'Back 5 s', action: 'back5' },
  { keys: ['l'], label: 'Forward 5 s', action: 'forward5' },
  { keys: ['Home', '0'], label: 'Jump to start', action: 'start' },
  { keys: ['End'], label: 'Jump to end', action: 'end' },
  { keys: ['-', '<'], label: 'Slower', action: 'slower' },
  { keys: ['+', '=', '>'], label: 'Faster', action: 'faster' },
];

/** How a key reads in the shortcut list. */
export const KEY_LABELS: Readonly<Record<string, string>> = { ' ': 'Space', ArrowLeft: '←', ArrowRight: '→' };

const BY_KEY = new Map(REPLAY_SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s.action] as const)));

/** The action for a key press, or null (modifier chords belong to the browser). */
export function replayActionFor(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): ReplayAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  return BY_KEY.get(e.key.length === 1 ? e.key.toLowerCase() : e.key) ?? null;
}

export const SPEEDS = [0.25, 0.5, 1, 2, 4] as const;
export type Speed = (typeof SPEEDS)[number];

export function nextSpeed(speed: Speed, dir: 1 | -1): Speed {
  const i = SPEEDS.indexOf(speed) + dir;
  return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i))]!;
}
