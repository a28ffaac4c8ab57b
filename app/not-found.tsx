import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <p className="font-mono text-6xl font-bold text-cyan-500">404</p>
      <h1 className="text-2xl font-semibold">This line has already cleared</h1>
      <p className="text-slate-600 dark:text-slate-400">The page you asked for does not exist.</p>
      <Link href="/" className="inline-block rounded-lg bg-slate-900 px-4 py-2 text-white dark:bg-slate-100 dark:text-slate-900">
        Back home
      </Link>
    </div>
  );
}
