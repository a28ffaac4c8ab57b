'use client';

import { SettingsPanel } from '@/components/settings/SettingsPanel';
import { useSettings } from '@/components/settings/useSettings';

export function SettingsPage({ signedIn }: { signedIn: boolean }) {
  const { settings, save, status } = useSettings(signedIn);
  if (!settings) return <p className="text-muted">Loading your settings…</p>;
  return <SettingsPanel settings={settings} onChange={save} status={status} />;
}
