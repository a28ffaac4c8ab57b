'use client';

import { SettingsPanel } from './SettingsPanel';
import { useSettings } from './useSettings';

export function SettingsPage({ signedIn }: { signedIn: boolean }) {
  const { settings, ready, save, status } = useSettings(signedIn);
  if (!ready) return <p className="text-slate-500">Loading your settings…</p>;
  return <SettingsPanel settings={settings} onChange={save} status={status} />;
}
