import Link from 'next/link';

export default function UnknownPlayer() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">Unknown player</h1>
      <p className="text-slate-600 dark:text-slate-400">No player has that name. Names on the boards link to their profiles.</p>
      <Link href="/leaderboards" className="text-cyan-600 hover:underline dark:text-cyan-400">
        Browse the leaderboards
      </Link>
    </div>
  );
}
