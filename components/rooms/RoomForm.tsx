'use client';

import { useState } from 'react';
import { B2B_TABLES, COMBO_TABLES, DEFAULT_ROOM_RULES, MAX_SEATS, MAX_TEAMS, MIN_SEATS, ROOM_RULE_LIMITS, TARGETINGS, VERSUS_MODE_NAMES, type Handling, type RoomRules, type VersusMode } from '@/lib/engine';
import { BOT_PPS, BOT_STYLES, type BotStyle } from '@/lib/bot/spec';
import { roomClientMessages } from '@/lib/live/rooms';
import type { NewRoom } from '@/lib/client/live/room-session';
import { BOT_STYLE_TEXT } from '@/lib/ui/bots';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { splitTeams, TARGETING_TEXT } from '@/lib/ui/room-rules';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';
import { Check } from '@/components/ui/Check';

/** The server's own schema for making a room: the form shows what it would refuse, before sending. */
const createSchema = roomClientMessages[0];
type Bot = { pps: number; style: BotStyle };
type NumberRule = keyof typeof ROOM_RULE_LIMITS;
const HINTS: Partial<Record<NumberRule, string>> = { garbageDelay: 'ticks, 60 = 1 s', timeLimitTicks: 'ticks, 0 = none, 3600 = 1 min', gravityLevel: '0 = follows the level', attackPercent: '%' };
const LABELS: Record<Exclude<NumberRule, 'messiness'>, string> = {
  firstTo: 'First to', timeLimitTicks: 'Time limit', garbageDelay: 'Garbage delay', garbageCap: 'Garbage cap (rows a lock)', attackPercent: 'Attack multiplier',
  preview: 'Preview', startLevel: 'Starting level', gravityLevel: 'Gravity level',
};
const field = 'rounded-md border border-line-strong bg-surface px-2 py-1';

/**
 * Making a room: its size, mode, every rule with its limits, and its bot seats (the last seats, so
 * people joining by link fill the first). Checked with the schema the server parses `rcreate` by.
 */
export function RoomForm({ onCreate, disabled, handling }: { onCreate: (room: NewRoom) => void; disabled: boolean; handling: Handling }) {
  const [mode, setMode] = useState<VersusMode>('battle');
  const [size, setSize] = useState(4);
  const [rules, setRules] = useState<RoomRules>({ ...DEFAULT_ROOM_RULES, firstTo: 1 });
  const [teamCount, setTeamCount] = useState(0);
  const [bots, setBots] = useState<Bot[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const set = <K extends keyof RoomRules>(k: K, v: RoomRules[K]) => setRules((r) => ({ ...r, [k]: v }));

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const room = { mode, size, rules: { ...rules, teams: splitTeams(size, teamCount) }, bots: bots.map((b, i) => ({ seat: size - bots.length + i, ...b })) };
    const parsed = createSchema.safeParse({ t: 'rcreate', ...room, handling });
    if (!parsed.success) {
      setErrors(parsed.error.issues.map((i) => `${i.path.join('.') || 'room'}: ${i.message}`));
      return;
    }
    setErrors([]);
    onCreate(room);
  };

  return (
    <Card as="form" aria-label="Make a room" onSubmit={submit} noValidate className="space-y-4">
      <h2 className="text-lg font-semibold">Make a room</h2>
      <ModeField mode={mode} onChange={setMode} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <Num label={`Seats (${MIN_SEATS}–${MAX_SEATS})`} value={size} min={MIN_SEATS} max={MAX_SEATS} onChange={(n) => {
          setSize(n);
          if (Number.isInteger(n)) setBots((b) => b.slice(0, Math.max(0, n - 1)));
        }} />
        <RulesFields size={size} rules={rules} set={set} teamCount={teamCount} setTeamCount={setTeamCount} />
      </div>
      <p className="text-sm text-muted">Rooms with people in them play with messiness 0: every row of an attack has the same hole.</p>
      <fieldset className="space-y-2">
        <legend className="font-semibold">Bot seats</legend>
        {bots.map((b, i) => (
          <div key={i} className="flex flex-wrap items-center gap-2 text-sm" data-testid="bot-seat">
            <span>Seat {size - bots.length + i + 1}:</span>
            <label className="flex items-center gap-1">
              Speed
              <select aria-label={`Bot ${i + 1} speed`} className={field} value={b.pps} onChange={(e) => setBots((all) => all.map((x, j) => (j === i ? { ...x, pps: Number(e.target.value) } : x)))}>
                {Array.from({ length: BOT_PPS.max - BOT_PPS.min + 1 }, (_, k) => BOT_PPS.min + k).map((p) => <option key={p} value={p}>{p} pieces/s</option>)}
              </select>
            </label>
            <label className="flex items-center gap-1">
              Style
              <select aria-label={`Bot ${i + 1} style`} className={field} value={b.style} onChange={(e) => setBots((all) => all.map((x, j) => (j === i ? { ...x, style: e.target.value as BotStyle } : x)))}>
                {BOT_STYLES.map((s) => <option key={s} value={s}>{BOT_STYLE_TEXT[s].label}</option>)}
              </select>
            </label>
            <Button variant="quiet" onClick={() => setBots((all) => all.filter((_, j) => j !== i))}>Remove</Button>
          </div>
        ))}
        <Button variant="secondary" disabled={bots.length >= size - 1} onClick={() => setBots((all) => [...all, { pps: 2, style: 'tidy' }])}>Add a bot</Button>
      </fieldset>
      {errors.length > 0 && (
        <ul role="alert" data-testid="room-form-errors" className="list-disc space-y-1 pl-5 text-sm text-danger">
          {errors.map((e) => <li key={e}>{e}</li>)}
        </ul>
      )}
      <Button type="submit" disabled={disabled}>Make the room</Button>
    </Card>
  );
}

/** Every rule with its limits: the room form's and the host's editor in the lobby. */
export function RulesFields({ size, rules, set, teamCount, setTeamCount }: { size: number; rules: RoomRules; set: <K extends keyof RoomRules>(k: K, v: RoomRules[K]) => void; teamCount: number; setTeamCount: (n: number) => void }) {
  return (
    <>
        {(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((k) => {
          const [lo, hi] = ROOM_RULE_LIMITS[k];
          return <Num key={k} label={`${LABELS[k]} (${lo}–${hi}${HINTS[k] ? `; ${HINTS[k]}` : ''})`} value={rules[k]} min={lo} max={hi} onChange={(n) => set(k, n)} />;
        })}
        <Pick label="Targeting" value={rules.targeting} options={TARGETINGS.map((t) => [t, `${TARGETING_TEXT[t].label} — ${TARGETING_TEXT[t].blurb}`])} onChange={(v) => set('targeting', v)} />
        <Pick label="Teams" value={String(teamCount)} options={[['0', 'Free-for-all'], ...Array.from({ length: Math.min(MAX_TEAMS, Math.max(size, 2)) - 1 }, (_, i) => [String(i + 2), `${i + 2} teams (seats in turn)`] as [string, string])]} onChange={(v) => setTeamCount(Number(v))} />
        <Pick label="Back-to-back bonus" value={rules.b2b} options={(Object.keys(B2B_TABLES) as RoomRules['b2b'][]).map((b) => [b, b])} onChange={(v) => set('b2b', v)} />
        <Pick label="Combo table" value={rules.combo} options={(Object.keys(COMBO_TABLES) as RoomRules['combo'][]).map((c) => [c, c])} onChange={(v) => set('combo', v)} />
        <div className="self-end pb-1">
          <Check label="Hold" checked={rules.hold} onChange={(v) => set('hold', v)} />
        </div>
    </>
  );
}

/** The mode, as radio buttons. */
export function ModeField({ mode, onChange }: { mode: VersusMode; onChange: (m: VersusMode) => void }) {
  return (
    <fieldset className="flex flex-wrap gap-4">
      <legend className="sr-only">Mode</legend>
      {VERSUS_MODE_NAMES.map((m) => (
        <label key={m} className="flex items-center gap-2">
          <input type="radio" name="room-mode" checked={mode === m} onChange={() => onChange(m)} />
          {VERSUS_MODE_INFO[m].label}
        </label>
      ))}
    </fieldset>
  );
}

export function Num({ label, value, min, max, onChange }: { label: string; value: number; min: number; max: number; onChange: (n: number) => void }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <input type="number" inputMode="numeric" className={field} value={Number.isFinite(value) ? value : ''} min={min} max={max} onChange={(e) => onChange(e.target.value === '' ? NaN : Number(e.target.value))} />
    </label>
  );
}

export function Pick<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: [T, string][]; onChange: (v: T) => void }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <select className={field} value={value} onChange={(e) => onChange(e.target.value as T)}>
        {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
    </label>
  );
}
