import type { Metadata } from 'next';
import Link from 'next/link';
import { BoardTable } from '@/components/boards/BoardTable';
import { formatResult, isMode, MODE_INFO, MODE_ORDER } from '@/lib/ui/modes';
import { Tabs } from '@/components/boards/Tabs';
import { getSessionUser } from '@/lib/server/auth';
import { getBoard, InvalidCursorError } from '@/lib/server/games/boards';
import { boardQuerySchema, type BoardQuery } from '@/lib/validations/games';
import { ResetCountdown } from '@/components/boards/ResetCountdown';
import { PeriodPicker } from '@/components/boards/PeriodPicker';
import { formatCountdown, isoWeek, nextReset, recentWeeks, shiftWeek } from '@/lib/periods/weeks';

/** How far back the week picker reaches; older weeks stay reachable by the ← links and ?week=. */
const PICKER_WEEKS = 26;

export const metadata: Metadata = { title: 'Leaderboards' };

type Search = { mode?: string; period?: string; week?: string; cursor?: string };

function href(q: { mode: string; period?: string; week?: string | null; cursor?: string }) {
  const params = new URLSearchParams({ mode: q.mode });
  if (q.period && q.period !== 'all') params.set('period', q.period);
  if (q.week) params.set('week', q.week);
  if (q.cursor) params.set('cursor', q.cursor);
  return `/leaderboards?${params}`;
}

export default async function LeaderboardsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const parsed = boardQuerySchema.safeParse({ ...search, mode: search.mode ?? MODE_ORDER[0], limit: 50 });
  if (!parsed.success) return <Problem message={parsed.error.issues[0]?.message ?? 'Invalid board query'} />;
  const query: BoardQuery = parsed.data;
  const user = await getSessionUser();
  let board;
  try {
    board = await getBoard({ ...query, viewerId: user?.id ?? null });
  } catch (error) {
    if (error instanceof InvalidCursorError) return <Problem message="That page link is no longer valid." mode={query.mode} />;
    throw error;
  }
  const now = new Date();
  const week = board.week ?? isoWeek(now);
  const thisWeek = isoWeek(now);
  const reset = nextReset(now);
  const weeks = recentWeeks(now, PICKER_WEEKS);
  if (!weeks.includes(week)) weeks.push(week);
  const previous = shiftWeek(week, -1);
  const next = shiftWeek(week, 1);

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Leaderboards</h1>
          <p className="text-sm text-slate-500">Every result here was re-simulated by the server from its replay.</p>
        </div>
        <Tabs
          label="Mode"
          tabs={MODE_ORDER.map((m) => ({ href: href({ mode: m, period: query.period, week: board.week }), label: MODE_INFO[m].label, active: m === query.mode }))}
        />
      </header>
      <div className="flex flex-wrap items-center gap-4">
        <Tabs
          label="Period"
          tabs={[
            { href: href({ mode: query.mode }), label: 'All time', active: query.period === 'all' },
            { href: href({ mode: query.mode, period: 'week' }), label: 'This week', active: query.period === 'week' && week === thisWeek },
          ]}
        />
        {board.week ? (
          <div className="flex items-center gap-3 text-sm" aria-label="Week">
            {previous ? <Link className="hover:underline" href={href({ mode: query.mode, period: 'week', week: previous })}>← {previous}</Link> : null}
            <span className="font-mono font-semibold" data-testid="board-week">{board.week}</span>
            {next && week !== thisWeek ? <Link className="hover:underline" href={href({ mode: query.mode, period: 'week', week: next })}>{next} →</Link> : null}
          </div>
        ) : null}
        {board.week ? <PeriodPicker key={week} mode={query.mode} weeks={weeks} selected={week} /> : null}
        {board.week === thisWeek ? <ResetCountdown until={reset.toISOString()} initial={formatCountdown(reset.getTime() - now.getTime())} /> : null}
      </div>
      {board.me ? (
        <p className="text-sm" data-testid="my-rank">
          Your best: <strong>#{board.me.rank}</strong> with {formatResult(query.mode, board.me)}
        </p>
      ) : null}
      <BoardTable mode={query.mode} rows={board.rows} me={board.me} />
      <div className="flex justify-between text-sm">
        {query.cursor ? <Link className="hover:underline" href={href({ mode: query.mode, period: query.period, week: board.week })}>← First page</Link> : <span />}
        {board.nextCursor ? (
          <Link className="hover:underline" href={href({ mode: query.mode, period: query.period, week: board.week, cursor: board.nextCursor })}>
            Next page →
          </Link>
        ) : null}
      </div>
    </div>
  );
}

function Problem({ message, mode = MODE_ORDER[0]! }: { message: string; mode?: string }) {
  return (
    <div className="space-y-3">
      <h1 className="text-3xl font-bold">Leaderboards</h1>
      <p role="alert" className="text-red-600 dark:text-red-400">{message}</p>
      <Link href={href({ mode: isMode(mode) ? mode : MODE_ORDER[0]! })} className="text-cyan-600 hover:underline">Back to the board</Link>
    </div>
  );
}
