import type { Metadata } from 'next';
import { OpenReplay } from '@/components/replay/OpenReplay';

export const metadata: Metadata = { title: 'Open a replay' };

export default function OpenReplayPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Open a replay file</h1>
      <p className="text-sm text-muted">A replay downloaded from any replay page plays here, in your browser, with the engine that verified it.</p>
      <OpenReplay />
    </div>
  );
}
