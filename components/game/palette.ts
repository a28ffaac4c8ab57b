import type { PaletteId } from '@/lib/validations/settings';

/** Cell colours by board letter (I O T S Z J L, X = garbage). */
export type Palette = Readonly<Record<string, string>>;

export const PALETTES: Record<PaletteId, Palette> = {
  // Guideline colours.
  standard: { I: '#22d3ee', O: '#facc15', T: '#a855f7', S: '#22c55e', Z: '#ef4444', J: '#3b82f6', L: '#f97316', X: '#64748b' },
  // Okabe–Ito: distinguishable with the common colour-vision deficiencies; every piece also differs in lightness.
  colorblind: { I: '#56b4e9', O: '#f0e442', T: '#cc79a7', S: '#009e73', Z: '#d55e00', J: '#0072b2', L: '#e69f00', X: '#7f7f7f' },
  // Saturated and bright against the dark field (each at least 4.5:1 to it), and each piece also
  // carries its own pattern (patterns.ts), so no colour needs to be told apart at all.
  highContrast: { I: '#00e5ff', O: '#ffee00', T: '#ea80fc', S: '#00e676', Z: '#ff5252', J: '#82b1ff', L: '#ff9100', X: '#bdbdbd' },
};

/** Palettes whose blocks are drawn with a pattern per piece. */
export const PATTERNED: ReadonlySet<Palette> = new Set([PALETTES.highContrast]);

export const THEME = {
  background: '#0b1120',
  field: '#020617',
  grid: 'rgba(148, 163, 184, 0.09)',
  border: '#334155',
  label: '#94a3b8',
  text: '#f8fafc',
  danger: 'rgba(239, 68, 68, 0.35)',
} as const;
