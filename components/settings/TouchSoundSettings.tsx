'use client';

import { SOUND_EFFECTS, SOUND_LABELS, type SoundSettings, type TouchSettings } from '@/lib/validations/touch-sound';
import type { Settings } from '@/lib/validations/settings';
import { TouchLayoutEditor } from '@/components/settings/TouchLayoutEditor';
import { Card } from '@/components/ui/Card';
import { Check } from '@/components/ui/Check';
import { Slider } from '@/components/ui/Slider';

const select = 'rounded-md border border-line-strong bg-transparent px-2 py-1';

const SHOW_LABELS: Record<TouchSettings['show'], string> = { auto: 'On touch screens', on: 'Always', off: 'Never' };

/** The touch controls' and sound's part of the settings form. */
export function TouchSoundSettings({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  const t = settings.touch;
  const s = settings.sound;
  const setTouch = (patch: Partial<TouchSettings>) => onChange({ ...settings, touch: { ...t, ...patch } });
  const setSound = (patch: Partial<SoundSettings>) => onChange({ ...settings, sound: { ...s, ...patch } });
  return (
    <>
      <Card as="section" className="space-y-3" aria-labelledby="touch-h">
        <h2 id="touch-h" className="font-semibold">Touch controls</h2>
        <div className="flex flex-wrap items-center gap-4">
          <label className="flex items-center gap-2 text-sm">
            Show on-screen buttons
            <select className={select} value={t.show} onChange={(e) => setTouch({ show: e.target.value as TouchSettings['show'] })}>
              {(Object.keys(SHOW_LABELS) as Array<TouchSettings['show']>).map((v) => (
                <option key={v} value={v}>{SHOW_LABELS[v]}</option>
              ))}
            </select>
          </label>
          <Check label="Left-handed (mirror the layout)" checked={t.mirror} onChange={(mirror) => setTouch({ mirror })} />
          <Check label="Vibrate on press" checked={t.haptics} onChange={(haptics) => setTouch({ haptics })} />
        </div>
        <Slider className="min-w-56 flex-1" label="Button opacity" min={20} max={100} step={5} value={t.opacity} shown={`${t.opacity}%`} onChange={(opacity) => setTouch({ opacity })} />
        <TouchLayoutEditor touch={t} onChange={(touch) => onChange({ ...settings, touch })} />
        <Check label="Gestures on the field (tap rotates, drag moves, drag down soft-drops, flick down drops, flick up holds)" checked={t.gestures} onChange={(gestures) => setTouch({ gestures })} />
        <Slider className="min-w-56 flex-1" label="Gesture sensitivity" min={1} max={10} value={t.sensitivity} shown={`${t.sensitivity} of 10`} disabled={!t.gestures} onChange={(sensitivity) => setTouch({ sensitivity })} />
      </Card>

      <Card as="section" className="space-y-3" aria-labelledby="sound-h">
        <h2 id="sound-h" className="font-semibold">Sound</h2>
        <div className="flex flex-wrap items-center gap-4">
          <Slider className="min-w-56 flex-1" label="Volume" min={0} max={100} step={5} value={s.volume} shown={`${s.volume}%`} disabled={s.muted} onChange={(volume) => setSound({ volume })} />
          <Check label="Mute" checked={s.muted} onChange={(muted) => setSound({ muted })} />
        </div>
        <fieldset className="grid gap-2 sm:grid-cols-3">
          <legend className="mb-1 text-sm text-muted">Effects</legend>
          {SOUND_EFFECTS.map((effect) => (
            <Check
              key={effect}
              label={SOUND_LABELS[effect]}
              checked={!s.off.includes(effect)}
              onChange={(on) => setSound({ off: on ? s.off.filter((e) => e !== effect) : [...s.off, effect] })}
            />
          ))}
        </fieldset>
      </Card>
    </>
  );
}
