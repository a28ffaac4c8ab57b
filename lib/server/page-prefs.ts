import 'server-only';
import { cookies } from 'next/headers';
import { decodePagePrefs, DEFAULT_PAGE_PREFS, PAGE_PREFS_COOKIE, pagePrefsOf, type PagePrefs } from '@/lib/page-prefs';
import { getSessionUser } from '@/lib/server/auth';
import { getSettings } from '@/lib/server/settings';

/**
 * Theme and motion for the page being rendered: this device's cookie, else (signed in on a device
 * that has none yet) the account's saved settings, else the defaults. A database that cannot be
 * reached costs the theme, never the page.
 */
export async function pagePrefsForRequest(): Promise<PagePrefs> {
  const raw = (await cookies()).get(PAGE_PREFS_COOKIE)?.value;
  if (raw !== undefined) return decodePagePrefs(raw);
  const user = await getSessionUser();
  if (!user) return DEFAULT_PAGE_PREFS;
  const settings = await getSettings({ userId: user.id }).catch(() => null);
  return settings ? pagePrefsOf(settings.display) : DEFAULT_PAGE_PREFS;
}
