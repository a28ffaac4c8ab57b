import type { ReactNode } from 'react';

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section aria-labelledby={`${id ?? title}-h`} className="space-y-3 rounded-xl border border-line bg-surface p-5">
      <h2 id={`${id ?? title}-h`} className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  );
}

export function Done({ message }: { message: string | null }) {
  if (!message) return null;
  return <p role="status" className="text-sm font-medium text-brand">{message}</p>;
}
