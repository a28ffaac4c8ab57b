import Link from 'next/link';
import { PageHeading } from '@/components/ui/PageHeading';

export default function ReplayNotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <PageHeading>Replay not found</PageHeading>
      <p className="text-muted">No verified game has this id. Unclaimed guest games expire after a day.</p>
      <Link href="/replays" className="link">
        Latest replays
      </Link>
    </div>
  );
}
