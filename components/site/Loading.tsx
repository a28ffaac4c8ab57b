/** A quiet placeholder while a server page streams in (route loading.tsx files use it). */
export function Loading({ label }: { label: string }) {
  return (
    <div className="space-y-4" role="status" aria-live="polite">
      <p className="sr-only">{label}</p>
      <div className="h-9 w-64 animate-pulse rounded bg-surface-2" />
      <div className="h-64 animate-pulse rounded-xl bg-surface-2" />
    </div>
  );
}
