import Link from 'next/link';
import { formatResult, MODE_INFO, MODE_ORDER } from '@/lib/ui/modes';
import { formatDate } from '@/lib/ui/format';
import type { Mode } from '@/lib/engine';
import { Card } from '@/components/ui/Card';

type Best = { id: string; mode: Mode; score: number; ticks: number; clears: number; createdAt: string };

/** One card per mode: the best result, linking to its replay. `own` offers a first game where there is none. */
export function PersonalBests({ bests, own }: { bests: Best[]; own: boolean }) {
  return (
    <div className="grid gap-4 sm:grid-cols-3" data-testid="personal-bests">
      {MODE_ORDER.map((mode) => {
        const best = bests.find((b) => b.mode === mode);
        return (
          <Card key={mode}>
            <p className="text-sm text-muted">{MODE_INFO[mode].label}</p>
            {best ? (
              <>
                <Link href={`/replays/${best.id}`} className="font-mono text-2xl font-semibold hover:underline">
                  {formatResult(mode, best)}
                </Link>
                <p className="text-xs text-muted">{formatDate(best.createdAt)}</p>
              </>
            ) : own ? (
              <Link href={`/play/${mode}`} className="link">
                Play your first
              </Link>
            ) : (
              <p className="text-muted">No games yet</p>
            )}
          </Card>
        );
      })}
    </div>
  );
}
