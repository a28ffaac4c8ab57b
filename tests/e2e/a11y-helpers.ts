import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { PAGE_PREFS_COOKIE, type Theme } from '@/lib/page-prefs';

/** This device's theme, as the settings page would have stored it: the server renders the next page with it. */
export async function setThemeCookie(context: BrowserContext, baseURL: string, theme: Theme): Promise<void> {
  await context.addCookies([{ name: PAGE_PREFS_COOKIE, value: theme, url: baseURL }]);
}

/** Presses Tab (or Shift+Tab, going back) until `target` has focus, as a keyboard user would, failing if it is not reached in `max` presses. */
export async function tabTo(page: Page, target: Locator, max = 40, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`not reached with ${max} presses of ${key}: ${target}`);
}

/** The body's computed background colour. */
export async function backgroundOf(page: Page): Promise<string> {
  return page.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor);
}

export const CANVAS = { light: 'rgb(248, 250, 252)', dark: 'rgb(2, 6, 23)' } as const;

export async function expectTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await expect.poll(() => backgroundOf(page)).toBe(CANVAS[theme]);
}

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * The rules whose outcome a theme can change: the colours. Structure, names and roles are the same
 * in both themes, so a page checked in full in one is checked in the other for these alone (a full
 * scan of each was half of the browser suite's accessibility time).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Serious and critical axe violations (and headings out of order) on the page as it stands, one
 * line each. `only: 'colours'` runs just the rules a theme can change.
 */
export async function violations(page: Page, where: string, only?: 'colours'): Promise<string[]> {
  const axe = new AxeBuilder({ page });
  const results = await (only === 'colours'
    ? axe.withRules(COLOUR_RULES)
    : axe
        .withTags(WCAG_AA)
        // Experimental in axe, but it is WCAG 2.5.3: a control's accessible name contains its visible label.
        .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
  ).analyze();
  return results.violations
    // Heading order is only "moderate" to axe, but headings in order is part of what we promise.
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.id === 'heading-order')
    .flatMap((v) => v.nodes.map((n) => `${where}: ${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ')}`));
}
