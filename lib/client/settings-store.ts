import { parseStoredSettings, type Settings } from '@/lib/validations/settings';
import type { FetchLike } from '@/lib/client/api';
import { readProblem } from '@/lib/client/errors';
import type { KeyValueStore } from '@/lib/client/pending';

export const SETTINGS_KEY = 'linefall:settings';

export function loadLocalSettings(store: KeyValueStore): Settings {
  try {
    return parseStoredSettings(JSON.parse(store.getItem(SETTINGS_KEY) ?? '{}'));
  } catch {
    return parseStoredSettings({});
  }
}

export function saveLocalSettings(store: KeyValueStore, settings: Settings): void {
  store.setItem(SETTINGS_KEY, JSON.stringify(settings));
}

/**
 * A signed-in player's settings follow them across devices: the account's copy wins when there is
 * one (and is written locally); an account without settings is given the local ones.
 */
export async function syncFromAccount(store: KeyValueStore, fetchImpl: FetchLike = fetch): Promise<Settings | null> {
  const res = await fetchImpl('/api/settings', { credentials: 'same-origin' });
  if (!res.ok) return null;
  const body = (await res.json()) as { settings: unknown };
  if (body.settings === null || body.settings === undefined) {
    await saveAccountSettings(loadLocalSettings(store), fetchImpl);
    return null;
  }
  const settings = parseStoredSettings(body.settings);
  saveLocalSettings(store, settings);
  return settings;
}

export async function saveAccountSettings(settings: Settings, fetchImpl: FetchLike = fetch): Promise<{ ok: true } | { ok: false; message: string }> {
  try {
    const res = await fetchImpl('/api/settings', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(settings),
    });
    return res.ok ? { ok: true } : { ok: false, message: (await readProblem(res)).message };
  } catch {
    return { ok: false, message: 'Could not reach the server; your settings are saved on this device.' };
  }
}
