/**
 * The two settings the page itself must know before any script runs: the colour theme and
 * whether to reduce motion. They live in the player's settings (lib/validations/settings.ts);
 * this cookie mirrors them so the server can write them onto <html> and the first paint is
 * already right (no flash of the wrong theme, no inline script). `system` is left to CSS, which
 * follows prefers-color-scheme without any script at all.
 *
 * Shared by the server (app/layout.tsx) and the browser: no zod, no server imports.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

export const PAGE_PREFS_COOKIE = 'linefall-page';
/** A year: a device preference, re-written whenever settings load or change. */
const MAX_AGE_S = 365 * 24 * 60 * 60;

export type PagePrefs = { theme: Theme; reduceMotion: boolean };

export const DEFAULT_PAGE_PREFS: PagePrefs = { theme: 'system', reduceMotion: false };

/** Cookie value: the theme, then `.reduce` when motion is reduced (e.g. `dark.reduce`). */
export function encodePagePrefs(p: PagePrefs): string {
  return p.reduceMotion ? `${p.theme}.reduce` : p.theme;
}

/** Anything unknown (no cookie, an old or hand-edited value) reads as the defaults. */
export function decodePagePrefs(value: string | undefined | null): PagePrefs {
  const [theme, motion] = (value ?? '').split('.');
  return {
    theme: THEMES.includes(theme as Theme) ? (theme as Theme) : DEFAULT_PAGE_PREFS.theme,
    reduceMotion: motion === 'reduce',
  };
}

/** The attributes globals.css keys its palette and motion rules on. */
export function htmlAttributes(p: PagePrefs): { 'data-theme': Theme; 'data-motion': 'reduce' | 'full' } {
  return { 'data-theme': p.theme, 'data-motion': p.reduceMotion ? 'reduce' : 'full' };
}

/** Browser only: applies the preferences to this page at once and remembers them for the next one. */
export function applyPagePrefs(p: PagePrefs): void {
  const root = document.documentElement;
  for (const [name, value] of Object.entries(htmlAttributes(p))) root.setAttribute(name, value);
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${PAGE_PREFS_COOKIE}=${encodePagePrefs(p)}; Path=/; Max-Age=${MAX_AGE_S}; SameSite=Lax${secure}`;
}

/** The page preferences held in a player's display settings. */
export function pagePrefsOf(display: { theme: Theme; reducedMotion: boolean }): PagePrefs {
  return { theme: display.theme, reduceMotion: display.reducedMotion };
}
