'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { loadLocalSettings, saveAccountSettings, saveLocalSettings, syncFromAccount } from '@/lib/client/settings-store';
import { defaultSettings, type Settings } from '@/lib/validations/settings';

const ACCOUNT_SAVE_DELAY_MS = 400;

export type SaveStatus = { state: 'idle' } | { state: 'saving' } | { state: 'saved'; where: 'device' | 'account' } | { state: 'error'; message: string };

/**
 * The player's settings: this device's copy at once, then (signed in) the account's copy, which
 * wins. `save` writes both. `ready` turns true once the account has been asked.
 */
export function useSettings(signedIn: boolean) {
  const [settings, setSettings] = useState<Settings>(defaultSettings);
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle' });

  useEffect(() => {
    let live = true;
    // Reading localStorage is only possible after hydration, hence this one-off sync into state.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setSettings(loadLocalSettings(window.localStorage));
    if (!signedIn) {
      setReady(true);
      return;
    }
    syncFromAccount(window.localStorage)
      .catch(() => null)
      .then((fromAccount) => {
        if (!live) return;
        if (fromAccount) setSettings(fromAccount);
        setReady(true);
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
      saveLocalSettings(window.localStorage, next);
      if (!signedIn) {
        setStatus({ state: 'saved', where: 'device' });
        return;
      }
      // Dragging a slider changes the value many times a second; the account gets the last one.
      setStatus({ state: 'saving' });
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        void saveAccountSettings(next).then((res) =>
          setStatus(res.ok ? { state: 'saved', where: 'account' } : { state: 'error', message: res.message }),
        );
      }, ACCOUNT_SAVE_DELAY_MS);
    },
    [signedIn],
  );

  return { settings, ready, save, status };
}
