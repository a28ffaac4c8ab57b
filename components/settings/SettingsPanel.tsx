'use client';

import { useEffect, useState } from 'react';
import { keyLabel } from '@/lib/client/keymap';
import { TICK_MS } from '@/lib/client/clock';
import { ARR_MAX, ARR_MIN, DAS_MAX, DAS_MIN, NEXT_COUNT_MAX, NEXT_COUNT_MIN, SDF_MAX, SDF_MIN } from '@/lib/engine';
import {
  ACTION_LABELS, ACTIONS, bindingConflicts, COUNTDOWNS, KEYS_PER_ACTION, PALETTES, PRESETS, presetBindings,
  type Action, type Countdown, type PaletteId, type PresetId, type Settings,
} from '@/lib/validations/settings';
import { THEMES, type Theme } from '@/lib/page-prefs';
import type { SaveStatus } from '@/components/settings/useSettings';
import { TouchSoundSettings } from '@/components/settings/TouchSoundSettings';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';
import { Check } from '@/components/ui/Check';
import { Slider } from '@/components/ui/Slider';

const ms = (ticks: number) => `${Math.round(ticks * TICK_MS)} ms`;
const select = 'rounded-md border border-line-strong bg-transparent px-2 py-1';

const THEME_LABELS: Record<Theme, string> = { system: 'Same as this device', light: 'Light', dark: 'Dark' };
const PALETTE_LABELS: Record<PaletteId, string> = { standard: 'Standard', colorblind: 'Colour-blind safe', highContrast: 'High contrast with patterns' };
const COUNTDOWN_LABELS: Record<Countdown, string> = { first: 'First game only', every: 'Every game' };

/** The whole settings form, used by /settings and the in-game dialog. Every change saves at once. */
export function SettingsPanel({ settings, onChange, status }: { settings: Settings; onChange: (s: Settings) => void; status: SaveStatus }) {
  const h = settings.handling;
  const d = settings.display;
  const setHandling = (patch: Partial<Settings['handling']>) => onChange({ ...settings, handling: { ...h, ...patch } });
  const setDisplay = (patch: Partial<Settings['display']>) => onChange({ ...settings, display: { ...d, ...patch } });

  return (
    <div className="space-y-6" data-testid="settings-panel">
      <Card as="section" className="space-y-3" aria-labelledby="handling-h">
        <h2 id="handling-h" className="font-semibold">Handling</h2>
        <Slider className="min-w-64 flex-1" label="DAS (delay before auto-shift)" min={DAS_MIN} max={DAS_MAX} value={h.das} shown={ms(h.das)} onChange={(das) => setHandling({ das })} />
        <Slider className="min-w-64 flex-1" label="ARR (auto-repeat rate)" min={ARR_MIN} max={ARR_MAX} value={h.arr} shown={h.arr === 0 ? '0 ms (instant)' : ms(h.arr)} onChange={(arr) => setHandling({ arr })} />
        <div className="flex flex-wrap items-center gap-4">
          <Slider
            className="min-w-64 flex-1"
            label="SDF (soft drop speed)"
            min={SDF_MIN}
            max={SDF_MAX}
            value={h.sdf === 'instant' ? SDF_MAX : h.sdf}
            shown={h.sdf === 'instant' ? 'instant' : `${h.sdf}× gravity`}
            disabled={h.sdf === 'instant'}
            onChange={(sdf) => setHandling({ sdf })}
          />
          <Check label="Instant soft drop" checked={h.sdf === 'instant'} onChange={(on) => setHandling({ sdf: on ? 'instant' : 20 })} />
        </div>
        <Check label="DAS cut (new pieces forget the charge)" checked={h.dasCut} onChange={(dasCut) => setHandling({ dasCut })} />
      </Card>

      <Bindings settings={settings} onChange={onChange} />

      <Card as="section" className="space-y-3" aria-labelledby="display-h">
        <h2 id="display-h" className="font-semibold">Display</h2>
        <div className="grid gap-2 sm:grid-cols-2">
          <Check label="Ghost piece" checked={d.ghost} onChange={(ghost) => setDisplay({ ghost })} />
          <Check label="Grid" checked={d.grid} onChange={(grid) => setDisplay({ grid })} />
          <Check label="Reduce motion (no flashing)" checked={d.reducedMotion} onChange={(reducedMotion) => setDisplay({ reducedMotion })} />
          <Check label="Rising (field upside down)" checked={d.rising} onChange={(rising) => setDisplay({ rising })} />
          <label className="flex items-center gap-2 text-sm">
            Theme
            <select className={select} value={d.theme} onChange={(e) => setDisplay({ theme: e.target.value as Theme })}>
              {THEMES.map((t) => (
                <option key={t} value={t}>{THEME_LABELS[t]}</option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm">
            Next pieces shown
            <select className={select} value={d.nextCount} onChange={(e) => setDisplay({ nextCount: Number(e.target.value) })}>
              {Array.from({ length: NEXT_COUNT_MAX - NEXT_COUNT_MIN + 1 }, (_, i) => NEXT_COUNT_MIN + i).map((n) => (
                <option key={n} value={n}>{n}</option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm">
            Colours
            <select className={select} value={d.palette} onChange={(e) => setDisplay({ palette: e.target.value as PaletteId })}>
              {PALETTES.map((p) => (
                <option key={p} value={p}>{PALETTE_LABELS[p]}</option>
              ))}
            </select>
          </label>
          {/* A restart plays at once unless the player wants the 3-2-1 every time. */}
          <label className="flex items-center gap-2 text-sm">
            Countdown
            <select className={select} value={d.countdown} onChange={(e) => setDisplay({ countdown: COUNTDOWNS.find((c) => c === e.target.value) ?? 'first' })}>
              {COUNTDOWNS.map((c) => (
                <option key={c} value={c}>{COUNTDOWN_LABELS[c]}</option>
              ))}
            </select>
          </label>
        </div>
      </Card>
      <TouchSoundSettings settings={settings} onChange={onChange} />
      <p role="status" data-testid="settings-status" className="text-sm text-muted">
        {status.state === 'saving' && 'Saving…'}
        {status.state === 'saved' && (status.where === 'account' ? 'Saved to your account and this device.' : 'Saved on this device.')}
        {status.state === 'error' && <span className="text-danger">Saved on this device, but not to your account: {status.message}</span>}
      </p>
    </div>
  );
}

function Bindings({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  const [listening, setListening] = useState<{ action: Action; slot: number } | null>(null);
  const bindings = settings.bindings;
  const conflicts = bindingConflicts(bindings);

  useEffect(() => {
    if (!listening) return;
    const onKey = (e: KeyboardEvent) => {
      // Capture phase, so the game (if any) never sees the key being assigned.
      e.preventDefault();
      e.stopImmediatePropagation();
      if (!/^[A-Za-z0-9]{1,32}$/.test(e.code)) return;
      const slots = [...bindings[listening.action]];
      slots[listening.slot] = e.code;
      const next = slots.filter((c, i) => c && slots.indexOf(c) === i).slice(0, KEYS_PER_ACTION);
      onChange({ ...settings, bindings: { ...bindings, [listening.action]: next } });
      setListening(null);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [listening, bindings, settings, onChange]);

  const clear = (action: Action, slot: number) =>
    onChange({ ...settings, bindings: { ...bindings, [action]: bindings[action].filter((_, i) => i !== slot) } });

  return (
    <Card as="section" className="space-y-3" aria-labelledby="keys-h">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="keys-h" className="font-semibold">Keys</h2>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Presets">
          {(Object.keys(PRESETS) as PresetId[]).map((id) => (
            <Button key={id} size="sm" onClick={() => onChange({ ...settings, bindings: presetBindings(id) })}>
              {PRESETS[id].label}
            </Button>
          ))}
        </div>
      </div>
      {conflicts.size > 0 && (
        <ul role="alert" data-testid="binding-conflicts" className="rounded-lg bg-danger-bg px-3 py-2 text-sm text-on-danger-bg">
          {[...conflicts].map(([code, actions]) => (
            <li key={code}>
              {keyLabel(code)} is bound to {actions.map((a) => ACTION_LABELS[a]).join(' and ')}; only {ACTION_LABELS[actions[0]!]} will work.
            </li>
          ))}
        </ul>
      )}
      {/* On a phone the key buttons are narrower; should a long key name still not fit, the table scrolls in its own box. */}
      <div className="relative overflow-x-auto">
        <table className="w-full text-sm">
          <tbody>
            {ACTIONS.map((action) => (
              <tr key={action} className="border-t border-line">
                <th scope="row" className="py-1.5 pr-2 text-left font-normal">{ACTION_LABELS[action]}</th>
                {Array.from({ length: KEYS_PER_ACTION }, (_, slot) => {
                  const code = bindings[action][slot];
                  const active = listening?.action === action && listening.slot === slot;
                  const clash = code !== undefined && conflicts.has(code);
                  const shown = active ? 'Press a key…' : code ? keyLabel(code) : '—';
                  return (
                    <td key={slot} className="py-1.5 pr-2">
                      <span className="inline-flex items-center gap-1">
                        <button
                          type="button"
                          // The name ends with what the button shows, so speech input can say either.
                          aria-label={`${ACTION_LABELS[action]} key ${slot + 1}: ${code || active ? shown : 'none'}`}
                          aria-pressed={active}
                          className={`min-w-20 sm:min-w-24 rounded-md border px-2 py-1 font-mono ${active ? 'border-link ring-2 ring-link/40' : clash ? 'border-danger text-danger' : 'border-line-strong'}`}
                          onClick={() => setListening(active ? null : { action, slot })}
                        >
                          {shown}
                        </button>
                        {code && !active && (
                          <button type="button" aria-label={`Clear ${ACTION_LABELS[action]} key ${slot + 1}`} className="px-1 text-muted hover:text-danger" onClick={() => clear(action, slot)}>
                            ×
                          </button>
                        )}
                      </span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
