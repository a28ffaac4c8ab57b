import type { ReactNode } from 'react';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-sm space-y-6 rounded-2xl border border-line bg-surface p-6 shadow-sm">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </div>
  );
}
