'use client';

import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  BUTTON_SIZE_MAX, BUTTON_SIZE_MIN, TOUCH_ACTIONS, TOUCH_LABELS, TOUCH_PRESETS, presetButtons,
  type ButtonPlace, type TouchAction, type TouchPresetId, type TouchSettings,
} from '@/lib/validations/touch-sound';
import { placeFor, within } from '@/components/touch/layout';
import { padProblems, type PadProblem } from '@/components/touch/pad-check';
import { Button } from '@/components/ui/Button';
import { Slider } from '@/components/ui/Slider';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The on-screen pad as it will look under the field: drag a button to move it, pick one to
 * resize it (or move it with the arrow keys). Positions are saved unmirrored; the preview shows
 * the mirror when left-handed is on. The preview is as wide as this screen held upright, and the
 * layout is checked against this screen both ways up: what would overlap or cover the field is
 * said under it.
 */
export function TouchLayoutEditor({ touch, onChange }: { touch: TouchSettings; onChange: (t: TouchSettings) => void }) {
  const area = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState<TouchAction>('left');
  const drag = useRef<{ action: TouchAction; id: number } | null>(null);

  const move = (action: TouchAction, patch: Partial<ButtonPlace>) =>
    onChange({ ...touch, buttons: { ...touch.buttons, [action]: { ...touch.buttons[action], ...patch } } });

  const toPercent = (e: PointerEvent) => {
    const box = area.current!.getBoundingClientRect();
    let x = clamp(((e.clientX - box.left) / box.width) * 100, 0, 100);
    const y = clamp(((e.clientY - box.top) / box.height) * 100, 0, 100);
    if (touch.mirror) x = 100 - x;
    return { x: Math.round(x), y: Math.round(y) };
  };

  const onKey = (action: TouchAction, e: KeyboardEvent) => {
    const step = e.shiftKey ? 10 : 2;
    const p = touch.buttons[action];
    const dx = { ArrowLeft: -step, ArrowRight: step }[e.key] ?? 0;
    const dy = { ArrowUp: -step, ArrowDown: step }[e.key] ?? 0;
    if (!dx && !dy) return;
    e.preventDefault();
    move(action, { x: clamp(p.x + (touch.mirror ? -dx : dx), 0, 100), y: clamp(p.y + dy, 0, 100) });
  };

  const phone = useScreen();
  const problems = phone ? padProblems(touch, phone) : [];
  const place = touch.buttons[selected];
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Touch layouts">
        <span className="text-sm">Layout:</span>
        {(Object.keys(TOUCH_PRESETS) as TouchPresetId[]).map((id) => (
          <Button key={id} size="sm" onClick={() => onChange({ ...touch, buttons: presetButtons(id) })}>
            {TOUCH_PRESETS[id].label}
          </Button>
        ))}
      </div>
      <p className="text-sm text-muted">Drag a button to move it, or pick it and use the arrow keys. The field sits above this area.</p>
      <div ref={area} data-testid="touch-editor" className="relative mx-auto h-52 touch-none select-none overflow-hidden rounded-xl bg-field" style={phone ? { maxWidth: Math.min(phone.width, phone.height) } : undefined}>
        {TOUCH_ACTIONS.map((action) => {
          const p = placeFor(touch.buttons[action], touch.mirror, false);
          return (
            <button
              key={action}
              type="button"
              aria-label={`${TOUCH_LABELS[action].name}: at ${Math.round(touch.buttons[action].x)}%, ${Math.round(touch.buttons[action].y)}%, ${touch.buttons[action].size} px`}
              aria-pressed={selected === action}
              data-action={action}
              className={`touch-button ${selected === action ? 'ring-2 ring-focus' : ''}`}
              style={{ left: within(p.x, p.size), top: within(p.y, p.size), width: p.size, height: p.size, opacity: touch.opacity / 100 }}
              onPointerDown={(e) => {
                e.currentTarget.setPointerCapture(e.pointerId);
                drag.current = { action, id: e.pointerId };
                setSelected(action);
              }}
              onPointerMove={(e) => {
                if (drag.current?.id === e.pointerId) move(action, toPercent(e));
              }}
              onPointerUp={() => (drag.current = null)}
              onPointerCancel={() => (drag.current = null)}
              onKeyDown={(e) => onKey(action, e)}
              onClick={() => setSelected(action)}
            >
              <span aria-hidden="true">{TOUCH_LABELS[action].glyph}</span>
            </button>
          );
        })}
      </div>
      <div role="status" data-testid="touch-problems">
        {problems.length > 0 && (
          <ul className="list-inside list-disc rounded-lg bg-warning-bg px-3 py-2 text-sm text-on-warning-bg">
            {problems.map((p) => <li key={problemKey(p)}>{problemText(p)}</li>)}
          </ul>
        )}
      </div>
      <Slider label={`Size of “${TOUCH_LABELS[selected].name}”`} min={BUTTON_SIZE_MIN} max={BUTTON_SIZE_MAX} step={2} value={place.size} shown={`${place.size} px`} onChange={(size) => move(selected, { size })} />
    </div>
  );
}

/** This device's screen in CSS px (read after mounting: the server has none). */
function useScreen(): { width: number; height: number } | null {
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const read = () => setSize({ width: window.screen.width, height: window.screen.height });
    read();
    window.addEventListener('resize', read);
    return () => window.removeEventListener('resize', read);
  }, []);
  return size;
}

const WAYS = { upright: 'held upright', side: 'on its side' } as const;

function problemText(p: PadProblem): string {
  switch (p.kind) {
    case 'overlap':
      return `“${TOUCH_LABELS[p.action].name}” and “${TOUCH_LABELS[p.other].name}” overlap on this screen ${WAYS[p.orientation]}.`;
    case 'field':
      return `“${TOUCH_LABELS[p.action].name}” covers the field on this screen on its side: move it outwards or make it smaller.`;
    default:
      return p satisfies never;
  }
}

function problemKey(p: PadProblem): string {
  switch (p.kind) {
    case 'overlap':
      return `${p.kind}:${p.action}:${p.other}:${p.orientation}`;
    case 'field':
      return `${p.kind}:${p.action}`;
    default:
      return p satisfies never;
  }
}
