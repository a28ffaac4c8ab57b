import Link from 'next/link';
import { PageHeading } from '@/components/ui/PageHeading';

export default function RoomSetNotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <PageHeading>Room set not found</PageHeading>
      <p className="text-muted">No stored room set has this id.</p>
      <Link href="/versus" className="link">
        Versus
      </Link>
    </div>
  );
}
