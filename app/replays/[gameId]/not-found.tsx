import Link from 'next/link';

export default function ReplayNotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">Replay not found</h1>
      <p className="text-slate-600 dark:text-slate-400">No verified game has this id. Unclaimed guest games expire after a day.</p>
      <Link href="/replays" className="text-cyan-600 hover:underline dark:text-cyan-400">
        Latest replays
      </Link>
    </div>
  );
}
