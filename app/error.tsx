'use client';

/** Any page that failed on the server: a plain message and a retry, never a stack trace. */
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center" role="alert">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="text-muted">This page could not be loaded. Please try again in a moment.</p>
      <button type="button" onClick={reset} className="rounded-lg bg-primary px-4 py-2 font-semibold text-on-primary hover:bg-primary-hover">
        Try again
      </button>
    </div>
  );
}
