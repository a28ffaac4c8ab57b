'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { applyPagePrefs, pagePrefsOf } from '@/lib/page-prefs';
import type { Settings } from '@/lib/validations/settings';

const ACCOUNT_SAVE_DELAY_MS = 400;

export type SaveStatus = { state: 'idle' } | { state: 'saving' } | { state: 'saved'; where: 'device' | 'account' } | { state: 'error'; message: string };

// Loaded on demand: the schema (zod) stays out of the pages' first load.
const store = () => import('@/lib/client/settings-store');

/**
 * The player's settings: this device's copy first, then (signed in) the account's copy, which
 * wins. Null until loaded. `save` writes both. Theme and motion also go to the page at once and
 * to the cookie the server renders the next page's first paint from.
 */
export function useSettings(signedIn: boolean) {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' });

  useEffect(() => {
    let live = true;
    void store().then(async (s) => {
      const local = s.loadLocalSettings(window.localStorage);
      const fromAccount = signedIn ? await s.syncFromAccount(window.localStorage).catch(() => null) : null;
      if (!live) return;
      const loaded = fromAccount ?? local;
      setSettings(loaded);
      applyPagePrefs(pagePrefsOf(loaded.display));
    });
    return () => {
      live = false;
    };
  }, [signedIn]);

  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const save = useCallback(
    (next: Settings) => {
      setSettings(next);
      applyPagePrefs(pagePrefsOf(next.display));
      setStatus(signedIn ? { state: 'saving' } : { state: 'saved', where: 'device' });
      void store().then((s) => {
        s.saveLocalSettings(window.localStorage, next);
        if (!signedIn) return;
        // Dragging a slider changes the value many times a second; the account gets the last one.
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => {
          void s.saveAccountSettings(next).then((res) =>
            setStatus(res.ok ? { state: 'saved', where: 'account' } : { state: 'error', message: res.message }),
          );
        }, ACCOUNT_SAVE_DELAY_MS);
      });
    },
    [signedIn],
  );

  return { settings, save, status };
}
