import Link from 'next/link';

/** Opens the practice sandbox at exactly this tick of a stored replay. */
export function PlayFromHere({ gameId, tick }: { gameId: string; tick: number }) {
  return (
    <Link
      href={`/practice?replay=${encodeURIComponent(gameId)}&tick=${tick}`}
      data-testid="play-from-here"
      className="rounded-lg bg-primary px-3 py-1.5 text-sm font-semibold text-on-primary hover:bg-primary-hover"
    >
      Play from here
    </Link>
  );
}
