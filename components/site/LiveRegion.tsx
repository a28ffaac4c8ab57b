/**
 * A polite live region, always in the page (screen readers only announce changes to a region
 * that already exists). Callers pass one short message per moment worth announcing; the same
 * message twice is said once.
 */
export function LiveRegion({ message, testId }: { message: string; testId?: string }) {
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid={testId}>
      {message}
    </div>
  );
}
