'use client';

import { SettingsPanel } from './SettingsPanel';
import { useSettings } from './useSettings';

export function SettingsPage({ signedIn }: { signedIn: boolean }) {
  const { settings, save, status } = useSettings(signedIn);
  if (!settings) return <p className="text-muted">Loading your settings…</p>;
  return <SettingsPanel settings={settings} onChange={save} status={status} />;
}
