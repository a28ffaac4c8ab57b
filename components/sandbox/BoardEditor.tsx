'use client';

import { useRef, useState } from 'react';
import { PALETTES } from '@/components/game/palette';
import { BRUSHES, paintCell, parseQueue, type Brush } from '@/lib/client/board-editor';
import { PIECES, type PieceType } from '@/lib/engine';
import { emptyBoard, FUMEN_ROWS, positionToFumen, type Position } from '@/lib/fumen';
import { ExportPanel } from '@/components/sandbox/ExportPanel';
import { Button } from '@/components/ui/Button';

const VISIBLE = 20;
const colours: Record<string, string> = { ...PALETTES.standard };
const BRUSH_LABEL: Record<Brush, string> = { X: 'Garbage', '.': 'Erase', I: 'I', O: 'O', T: 'T', S: 'S', Z: 'Z', J: 'J', L: 'L' };

/**
 * Paint a board cell by cell (drag to paint on; a click on a cell of the brush's colour erases
 * it), set hold and queue, then play it or export it. The 20 visible rows are edited; hidden rows
 * come along unchanged.
 */
export function BoardEditor({ initial, onPlay, onCancel }: { initial: Position; onPlay: (p: Position) => void; onCancel: () => void }) {
  const [board, setBoard] = useState(initial.board);
  const [brush, setBrush] = useState<Brush>('X');
  const [hold, setHold] = useState<PieceType | null>(initial.hold);
  const [queueText, setQueueText] = useState(initial.queue.join(''));
  const stroke = useRef<Brush | null>(null);
  const parsed = parseQueue(queueText);
  const position = (): Position | null => ('queue' in parsed ? { board, active: null, hold, queue: parsed.queue } : null);

  const apply = (x: number, y: number, b: Brush) => setBoard((current) => paintCell(current, x, y, b));
  const start = (x: number, y: number) => {
    const cell = board[FUMEN_ROWS - 1 - y]![x];
    stroke.current = cell === brush ? '.' : brush;
    apply(x, y, stroke.current);
  };

  return (
    <div className="space-y-3" data-testid="editor" onPointerUp={() => (stroke.current = null)} onPointerLeave={() => (stroke.current = null)}>
      <div role="radiogroup" aria-label="Brush" className="flex flex-wrap gap-1">
        {BRUSHES.map((b) => (
          <button
            key={b}
            type="button"
            role="radio"
            aria-checked={brush === b}
            onClick={() => setBrush(b)}
            className={`rounded px-2 py-1 text-sm font-semibold ${brush === b ? 'ring-2 ring-focus' : ''}`}
            style={{ background: b === '.' ? 'transparent' : colours[b], color: b === '.' ? undefined : 'var(--color-field)' }}
          >
            {BRUSH_LABEL[b]}
          </button>
        ))}
      </div>
      <div className="mx-auto grid w-fit touch-none select-none grid-cols-10 gap-px bg-field-line p-px" aria-label="Board to edit">
        {Array.from({ length: VISIBLE }, (_, r) => VISIBLE - 1 - r).map((y) =>
          Array.from({ length: 10 }, (_, x) => {
            const cell = board[FUMEN_ROWS - 1 - y]![x]!;
            return (
              <button
                key={`${x},${y}`}
                type="button"
                aria-label={`column ${x + 1}, row ${y + 1}: ${cell === '.' ? 'empty' : cell}`}
                data-cell={`${x},${y}`}
                className="h-5 w-5 sm:h-6 sm:w-6"
                style={{ background: cell === '.' ? '#020617' : colours[cell] }}
                onPointerDown={(e) => {
                  e.preventDefault();
                  start(x, y);
                }}
                onPointerEnter={() => stroke.current && apply(x, y, stroke.current)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    start(x, y);
                  }
                }}
              />
            );
          }),
        )}
      </div>
      <div className="flex flex-wrap items-end gap-3 text-sm">
        <label className="flex flex-col gap-1">
          Hold
          <select value={hold ?? ''} onChange={(e) => setHold((e.target.value || null) as PieceType | null)} className="rounded border border-line-strong bg-transparent px-1 py-1">
            <option value="">empty</option>
            {PIECES.map((p) => (
              <option key={p} value={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-1 flex-col gap-1">
          Queue (first piece first; 7-bags follow)
          <input value={queueText} onChange={(e) => setQueueText(e.target.value)} aria-invalid={'error' in parsed} className="rounded border border-line-strong bg-transparent px-2 py-1 font-mono" />
        </label>
      </div>
      {'error' in parsed && <p role="alert" className="text-sm text-danger">{parsed.error}</p>}
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" disabled={!position()} onClick={() => { const p = position(); if (p) onPlay(p); }}>
          Play this board
        </Button>
        <Button onClick={() => setBoard(emptyBoard())}>Clear board</Button>
        <Button onClick={onCancel}>Cancel</Button>
      </div>
      <ExportPanel pages={false} exportFumen={() => { const p = position(); return p ? positionToFumen(p) : null; }} />
    </div>
  );
}
