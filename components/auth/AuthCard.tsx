import type { ReactNode } from 'react';
import { PageHeading } from '@/components/ui/PageHeading';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-sm space-y-6 rounded-2xl border border-line bg-surface p-6 shadow-sm">
      <PageHeading>{title}</PageHeading>
      {children}
    </div>
  );
}
