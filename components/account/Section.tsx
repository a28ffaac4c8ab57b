import type { ReactNode } from 'react';
import { Card } from '@/components/ui/Card';

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <Card as="section" padding="lg" aria-labelledby={`${id ?? title}-h`} className="space-y-3">
      <h2 id={`${id ?? title}-h`} className="text-lg font-semibold">{title}</h2>
      {children}
    </Card>
  );
}

export function Done({ message }: { message: string | null }) {
  if (!message) return null;
  return <p role="status" className="text-sm font-medium text-brand">{message}</p>;
}
