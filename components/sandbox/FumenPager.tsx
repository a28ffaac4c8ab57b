'use client';

import { drillQueue, drillQueueText, pageLabel, pageStep, type FumenDrill } from '@/lib/client/fumen-drill';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/Card';

/** A fumen's pages: where the drill is, a step either way, and whose pieces the queue holds. */
export function FumenPager({ drill, taken, onPage }: { drill: FumenDrill; taken: number | null; onPage: (page: number) => void }) {
  const prev = pageStep(drill, -1);
  const next = pageStep(drill, 1);
  return (
    <Card as="section" padding="sm" className="space-y-2" data-testid="fumen-pager">
      <div className="flex items-center justify-between gap-2">
        <Button data-testid="page-prev" size="sm" disabled={prev === null} onClick={() => prev !== null && onPage(prev)}>
          ‹ Previous
        </Button>
        <h2 data-testid="page-label" className="font-semibold" aria-live="polite">
          {pageLabel(drill)}
        </h2>
        <Button data-testid="page-next" size="sm" disabled={next === null} onClick={() => next !== null && onPage(next)}>
          Next ›
        </Button>
      </div>
      <p data-testid="fumen-queue" className="text-sm">
        {taken === null ? '' : drillQueueText(drillQueue(drill, taken))}
      </p>
      <p className="text-xs text-muted">
        Each piece waits for your hard drop. Page Up / Page Down (or [ and ]) step through the pages
        {drill.queueFrom === 'quiz' ? "; the queue and hold are the page's quiz." : '.'}
      </p>
    </Card>
  );
}
