import { describe, expect, it } from 'vitest';
import { loadLocalSettings, saveLocalSettings, SETTINGS_KEY } from '@/lib/client/settings-store';
import { defaultSettings, parseStoredSettings, settingsSchema } from '@/lib/validations/settings';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

describe('settings schema', () => {
  it('defaults every field', () => {
    const s = defaultSettings();
    expect(s.version).toBe(1);
    expect(s.handling).toEqual({ das: 10, arr: 2, sdf: 20, dasCut: false });
    expect(s.display).toEqual({ ghost: true, nextCount: 5, grid: true, palette: 'standard', reducedMotion: false, theme: 'system', rising: false, countdown: 'first' });
  });

  it('refuses out-of-range handling with a message naming it', () => {
    const r = settingsSchema.safeParse({ handling: { das: 0 } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('DAS must be at least 1');
    expect(settingsSchema.safeParse({ handling: { sdf: 'fast' } }).success).toBe(false);
    expect(settingsSchema.safeParse({ handling: { sdf: 'instant' } }).success).toBe(true);
    expect(settingsSchema.safeParse({ display: { nextCount: 7 } }).error?.issues[0]?.message).toBe('Next count must be at most 6');
    expect(settingsSchema.safeParse({ display: { countdown: 'never' } }).error?.issues[0]?.message).toBe('Countdown must be one of first, every');
    expect(settingsSchema.parse({ display: { countdown: 'every' } }).display.countdown).toBe('every');
  });

  it('refuses more than two keys per action, a key twice, or a made-up code', () => {
    expect(settingsSchema.safeParse({ bindings: { left: ['KeyA', 'KeyB', 'KeyC'] } }).success).toBe(false);
    expect(settingsSchema.safeParse({ bindings: { left: ['KeyA', 'KeyA'] } }).success).toBe(false);
    expect(settingsSchema.safeParse({ bindings: { left: ['<script>'] } }).success).toBe(false);
  });

  it('falls back to defaults for garbage in storage', () => {
    expect(parseStoredSettings('nope')).toEqual(defaultSettings());
    expect(parseStoredSettings({ version: 99 })).toEqual(defaultSettings());
  });
});

describe('local settings', () => {
  it('round-trips and survives corrupt JSON', () => {
    const store = memory();
    expect(loadLocalSettings(store)).toEqual(defaultSettings());
    const s = { ...defaultSettings(), display: { ...defaultSettings().display, rising: true } };
    saveLocalSettings(store, s);
    expect(loadLocalSettings(store)).toEqual(s);
    store.setItem(SETTINGS_KEY, '{not json');
    expect(loadLocalSettings(store)).toEqual(defaultSettings());
  });
});
