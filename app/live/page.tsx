import type { Metadata } from 'next';
import { LiveNow } from '@/components/live/LiveNow';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Live now' };

export default function LivePage() {
  return (
    <div className="space-y-4">
      <div>
        <PageHeading>Live now</PageHeading>
        <p className="text-muted">Every ranked game is played live: pick one to watch it as it happens, a moment behind the player.</p>
      </div>
      <LiveNow />
    </div>
  );
}
