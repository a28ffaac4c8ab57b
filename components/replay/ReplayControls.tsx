import type { ReplayAction } from '@/lib/client/replay-keys';

/** Transport buttons (glyphs every system font has); names match the shortcut list so each control is findable by its label. */
const BUTTONS: ReadonlyArray<{ action: ReplayAction; glyph: string; label: string }> = [
  { action: 'start', glyph: '⇤', label: 'Jump to start' },
  { action: 'pieceBack', glyph: '«', label: 'Previous piece' },
  { action: 'tickBack', glyph: '‹', label: 'Back one tick' },
  { action: 'toggle', glyph: '', label: '' },
  { action: 'tickForward', glyph: '›', label: 'Forward one tick' },
  { action: 'pieceForward', glyph: '»', label: 'Next piece' },
  { action: 'end', glyph: '⇥', label: 'Jump to end' },
];

const base = 'min-w-8 rounded-lg border border-line-strong px-2 py-1.5 text-base leading-none hover:bg-surface-2';

export function ReplayControls({ playing, done, onAction }: { playing: boolean; done: boolean; onAction: (a: ReplayAction) => void }) {
  return (
    <div className="flex items-center gap-1" role="group" aria-label="Playback">
      {BUTTONS.map((b) =>
        b.action === 'toggle' ? (
          <button
            key={b.action}
            type="button"
            onClick={() => onAction('toggle')}
            className="w-24 rounded-lg bg-primary px-3 py-1.5 font-semibold text-on-primary hover:bg-primary-hover"
          >
            {done ? 'Replay' : playing ? 'Pause' : 'Play'}
          </button>
        ) : (
          <button key={b.action} type="button" onClick={() => onAction(b.action)} aria-label={b.label} title={b.label} className={base}>
            {b.glyph}
          </button>
        ),
      )}
    </div>
  );
}
