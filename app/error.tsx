'use client';

import { PageHeading } from '@/components/ui/PageHeading';
import { Button } from '@/components/ui/Button';

/** Any page that failed on the server: a plain message and a retry, never a stack trace. */
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-md space-y-4 py-16 text-center" role="alert">
      <PageHeading>Something went wrong</PageHeading>
      <p className="text-muted">This page could not be loaded. Please try again in a moment.</p>
      <Button variant="primary" size="md" onClick={reset}>
        Try again
      </Button>
    </div>
  );
}
