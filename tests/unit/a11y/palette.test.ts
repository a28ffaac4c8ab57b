import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PALETTES, THEME } from '@/components/game/palette';
import { contrast, themeTokens } from '@/tests/unit/a11y/contrast';

const tokens = themeTokens(readFileSync(new URL('../../../app/globals.css', import.meta.url), 'utf8'));

const PAGE_BACKGROUNDS = ['canvas', 'surface', 'surface-2', 'highlight'];
const FIELD_BACKGROUNDS = ['field', 'field-panel'];

/** [foreground, background, minimum ratio]: every pairing the pages draw. */
const PAIRS: Array<[string, string, number]> = [
  ...['fg', 'muted', 'link', 'brand', 'danger'].flatMap((fg) => PAGE_BACKGROUNDS.map((bg): [string, string, number] => [fg, bg, 4.5])),
  ['on-primary', 'primary', 4.5],
  ['on-primary', 'primary-hover', 4.5],
  ['on-inverse', 'inverse', 4.5],
  ['on-danger-bg', 'danger-bg', 4.5],
  ['on-warning-bg', 'warning-bg', 4.5],
  // Outlines of inputs and buttons, the focus ring, checkbox and slider accents, chart lines: 3:1.
  ...['line-strong', 'focus', 'link', 'brand'].flatMap((fg) => PAGE_BACKGROUNDS.map((bg): [string, string, number] => [fg, bg, 3])),
  ...['field-fg', 'field-muted', 'field-accent', 'field-warn', 'field-danger', 'field-success'].flatMap((fg) =>
    FIELD_BACKGROUNDS.map((bg): [string, string, number] => [fg, bg, 4.5]),
  ),
  ...FIELD_BACKGROUNDS.flatMap((bg): Array<[string, string, number]> => [['field-line', bg, 3], ['focus', bg, 3]]),
];

describe('the site palette', () => {
  it.each(PAIRS)('%s on %s meets %s:1 in the light and the dark theme', (fg, bg, min) => {
    const f = tokens.get(fg);
    const b = tokens.get(bg);
    expect(f, `--color-${fg}`).toBeDefined();
    expect(b, `--color-${bg}`).toBeDefined();
    expect(contrast(f!.light, b!.light)).toBeGreaterThanOrEqual(min);
    expect(contrast(f!.dark, b!.dark)).toBeGreaterThanOrEqual(min);
  });

  it('keeps the game field the same in both themes', () => {
    for (const name of [...tokens.keys()].filter((n) => n.startsWith('field'))) expect(tokens.get(name)?.light).toBe(tokens.get(name)?.dark);
    expect(tokens.get('field')?.light).toBe(THEME.background);
  });
});

describe('piece palettes', () => {
  it('high contrast: every piece stands out from the field by at least 4.5:1', () => {
    for (const [piece, colour] of Object.entries(PALETTES.highContrast)) {
      expect(contrast(colour, THEME.field), piece).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colour, THEME.background), piece).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('every palette colours the same pieces', () => {
    const letters = Object.keys(PALETTES.standard).sort();
    for (const palette of Object.values(PALETTES)) expect(Object.keys(palette).sort()).toEqual(letters);
  });
});
