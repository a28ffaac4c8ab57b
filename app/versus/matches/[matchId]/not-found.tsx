import Link from 'next/link';

export default function MatchNotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">Match not found</h1>
      <p className="text-muted">No stored versus match has this id.</p>
      <Link href="/leaderboards/versus" className="link">
        Versus leaderboards
      </Link>
    </div>
  );
}
