import { describe, expect, it } from 'vitest';
import { decodePagePrefs, DEFAULT_PAGE_PREFS, encodePagePrefs, htmlAttributes, pagePrefsOf, THEMES } from '@/lib/page-prefs';
import { defaultSettings, parseStoredSettings, settingsSchema } from '@/lib/validations/settings';

describe('page preferences cookie', () => {
  it('round-trips every theme with and without reduced motion', () => {
    for (const theme of THEMES) {
      for (const reduceMotion of [false, true]) expect(decodePagePrefs(encodePagePrefs({ theme, reduceMotion }))).toEqual({ theme, reduceMotion });
    }
  });

  it('reads a missing, old or hand-edited value as the defaults', () => {
    for (const value of [undefined, null, '', 'purple', 'dark.fast.reduce', '<script>', 'system.'])
      expect(decodePagePrefs(value).theme).toBe(value?.startsWith('dark') ? 'dark' : 'system');
    expect(decodePagePrefs('dark.fast')).toEqual({ theme: 'dark', reduceMotion: false });
    expect(decodePagePrefs(undefined)).toEqual(DEFAULT_PAGE_PREFS);
  });

  it('becomes the attributes the stylesheet keys on', () => {
    expect(htmlAttributes({ theme: 'dark', reduceMotion: true })).toEqual({ 'data-theme': 'dark', 'data-motion': 'reduce' });
    expect(htmlAttributes(DEFAULT_PAGE_PREFS)).toEqual({ 'data-theme': 'system', 'data-motion': 'full' });
  });
});

describe('theme in the settings', () => {
  it('defaults to system, also for settings stored before themes existed', () => {
    expect(defaultSettings().display.theme).toBe('system');
    const old = parseStoredSettings({ version: 1, display: { palette: 'colorblind', reducedMotion: true } });
    expect(old.display).toMatchObject({ theme: 'system', palette: 'colorblind', reducedMotion: true });
    expect(pagePrefsOf(old.display)).toEqual({ theme: 'system', reduceMotion: true });
  });

  it('refuses an unknown theme with a message naming the choices', () => {
    const r = settingsSchema.safeParse({ display: { theme: 'sepia' } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Theme must be one of system, light, dark');
    expect(settingsSchema.parse({ display: { theme: 'dark', palette: 'highContrast' } }).display).toMatchObject({ theme: 'dark', palette: 'highContrast' });
  });
});
