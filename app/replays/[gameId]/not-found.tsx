import Link from 'next/link';

export default function ReplayNotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">Replay not found</h1>
      <p className="text-muted">No verified game has this id. Unclaimed guest games expire after a day.</p>
      <Link href="/replays" className="link">
        Latest replays
      </Link>
    </div>
  );
}
