import Link from 'next/link';
import type { Mode } from '@/lib/engine';
import type { BoardRow } from '@/lib/server/games/boards';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { MODE_INFO, formatResult } from '@/lib/ui/modes';
import { boardHref } from '@/lib/ui/links';
import { Card } from '@/components/ui/Card';

/** One card per mode: the week's leaders with a link to watch each game. */
export function WeeklyTop({ boards }: { boards: Array<{ mode: Mode; week: string; rows: BoardRow[] }> }) {
  return (
    <div className="grid gap-4 sm:grid-cols-3" data-testid="weekly-top">
      {boards.map(({ mode, rows }) => (
        <Card key={mode} data-testid={`weekly-top-${mode}`}>
          <h3 className="font-semibold">
            <Link href={boardHref({ mode, period: 'week' })} className="hover:underline">
              {MODE_INFO[mode].label}
            </Link>
          </h3>
          {rows.length === 0 ? (
            <p className="mt-2 text-sm text-muted">
              No games this week yet.{' '}
              <Link href={`/play/${mode}`} className="link">
                Set the first
              </Link>
            </p>
          ) : (
            <ol className="mt-2 space-y-1 text-sm">
              {rows.map((row) => (
                <li key={row.gameId} className="flex items-center gap-2">
                  <span className="w-5 font-mono text-muted">{row.rank}</span>
                  <PlayerLink username={row.player.username} className="flex-1 truncate" />
                  <span className="font-mono">{formatResult(mode, row)}</span>
                  <Link href={`/replays/${row.gameId}`} className="link">
                    Watch
                  </Link>
                </li>
              ))}
            </ol>
          )}
        </Card>
      ))}
    </div>
  );
}
