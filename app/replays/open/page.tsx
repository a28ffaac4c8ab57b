import type { Metadata } from 'next';
import { OpenReplay } from '@/components/replay/OpenReplay';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Open a replay' };

export default function OpenReplayPage() {
  return (
    <div className="space-y-4">
      <PageHeading>Open a replay file</PageHeading>
      <p className="text-sm text-muted">A replay downloaded from any replay page plays here, in your browser, with the engine that verified it.</p>
      <OpenReplay />
    </div>
  );
}
