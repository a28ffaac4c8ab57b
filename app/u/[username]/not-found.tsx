import Link from 'next/link';
import { PageHeading } from '@/components/ui/PageHeading';

export default function UnknownPlayer() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <PageHeading>Unknown player</PageHeading>
      <p className="text-muted">No player has that name. Names on the boards link to their profiles.</p>
      <Link href="/leaderboards" className="link">
        Browse the leaderboards
      </Link>
    </div>
  );
}
