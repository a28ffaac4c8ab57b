import Link from 'next/link';

/** Opens the practice sandbox at exactly this tick of a stored replay. */
export function PlayFromHere({ gameId, tick }: { gameId: string; tick: number }) {
  return (
    <Link
      href={`/practice?replay=${encodeURIComponent(gameId)}&tick=${tick}`}
      data-testid="play-from-here"
      className="rounded-lg bg-cyan-500 px-3 py-1.5 text-sm font-semibold text-slate-950 hover:bg-cyan-400"
    >
      Play from here
    </Link>
  );
}
