import type { ReplayAction } from '@/lib/client/replay-keys';
import { Button } from '@/components/ui/Button';

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

export function ReplayControls({ playing, done, onAction }: { playing: boolean; done: boolean; onAction: (a: ReplayAction) => void }) {
  return (
    <div className="flex items-center gap-1" role="group" aria-label="Playback">
      {BUTTONS.map((b) =>
        b.action === 'toggle' ? (
          // As wide as its longest word, so the row does not shift as it changes.
          <Button key={b.action} variant="primary" className="w-24" onClick={() => onAction('toggle')}>
            {done ? 'Replay' : playing ? 'Pause' : 'Play'}
          </Button>
        ) : (
          <Button key={b.action} size="icon" onClick={() => onAction(b.action)} aria-label={b.label} title={b.label}>
            {b.glyph}
          </Button>
        ),
      )}
    </div>
  );
}
