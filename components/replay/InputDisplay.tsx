import type { Key } from '@/lib/engine';

/** Keys in the order of a keyboard's layout as players read it, with their glyphs. */
const KEY_CAPS: ReadonlyArray<{ key: Key; cap: string; name: string }> = [
  { key: 'hold', cap: 'Hold', name: 'Hold' },
  { key: 'rotateCCW', cap: '↺', name: 'Rotate counter-clockwise' },
  { key: 'rotate180', cap: '180', name: 'Rotate 180°' },
  { key: 'rotateCW', cap: '↻', name: 'Rotate clockwise' },
  { key: 'left', cap: '←', name: 'Left' },
  { key: 'softDrop', cap: '↓', name: 'Soft drop' },
  { key: 'right', cap: '→', name: 'Right' },
  { key: 'hardDrop', cap: '⤓', name: 'Hard drop' },
  // Held for a moment only (it moves once per press), and only in rules 3 and later.
  { key: 'rowDown', cap: '↓1', name: 'One row down' },
];

/** Which keys the player held at the moment shown (the engine's own key state). */
export function InputDisplay({ held }: { held: readonly Key[] }) {
  return (
    <ul aria-label="Keys held" className="grid grid-cols-4 gap-1" data-testid="input-display" data-held={held.join(' ')}>
      {KEY_CAPS.map(({ key, cap, name }) => {
        const down = held.includes(key);
        return (
          <li
            key={key}
            title={name}
            aria-label={`${name}${down ? ' (held)' : ''}`}
            className={`rounded-md border px-2 py-1 text-center font-mono text-sm ${
              down ? 'border-primary bg-primary text-on-primary' : 'border-line-strong text-muted'
            }`}
          >
            {cap}
          </li>
        );
      })}
    </ul>
  );
}
