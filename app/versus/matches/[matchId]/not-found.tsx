import Link from 'next/link';
import { PageHeading } from '@/components/ui/PageHeading';

export default function MatchNotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <PageHeading>Match not found</PageHeading>
      <p className="text-muted">No stored versus match has this id.</p>
      <Link href="/leaderboards/versus" className="link">
        Versus leaderboards
      </Link>
    </div>
  );
}
