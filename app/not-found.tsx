import Link from 'next/link';

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center">
      <p className="font-mono text-6xl font-bold text-brand">404</p>
      <h1 className="text-2xl font-semibold">This line has already cleared</h1>
      <p className="text-muted">The page you asked for does not exist.</p>
      <Link href="/" className="inline-block rounded-lg bg-inverse px-4 py-2 text-on-inverse">
        Back home
      </Link>
    </div>
  );
}
