'use client';

import { SettingsPanel } from '@/components/settings/SettingsPanel';
import { useSettings } from '@/components/settings/useSettings';

export function SettingsPage({ signedIn }: { signedIn: boolean }) {
  const { settings, save, status } = useSettings(signedIn);
  if (!settings) return <p className="text-slate-500">Loading your settings…</p>;
  return <SettingsPanel settings={settings} onChange={save} status={status} />;
}
