import type { Metadata } from 'next';
import Link from 'next/link';
import { BoardKindTabs } from '@/components/boards/BoardKindTabs';
import { BoardTable } from '@/components/boards/BoardTable';
import { PeriodPicker } from '@/components/boards/PeriodPicker';
import { ResetCountdown } from '@/components/boards/ResetCountdown';
import { Tabs } from '@/components/boards/Tabs';
import { nextReset, PERIOD_IDS, PERIODS, recentBuckets, shiftBucket } from '@/lib/periods';
import { getSessionUser } from '@/lib/server/auth';
import { getBoard, InvalidCursorError } from '@/lib/server/games/boards';
import { boardHref } from '@/lib/ui/links';
import { formatCountdown } from '@/lib/ui/format';
import { formatResult, isMode, MODE_INFO, MODE_ORDER } from '@/lib/ui/modes';
import { boardQuerySchema, type BoardQuery } from '@/lib/validations/games';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Leaderboards' };

type Search = Record<string, string | string[] | undefined>;

export default async function LeaderboardsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const parsed = boardQuerySchema.safeParse({ ...search, mode: search.mode ?? MODE_ORDER[0], limit: 50 });
  if (!parsed.success) return <Problem message={parsed.error.issues[0]?.message ?? 'Invalid board query'} mode={search.mode} />;
  const query: BoardQuery = parsed.data;
  const user = await getSessionUser();
  let board;
  try {
    board = await getBoard({ ...query, viewerId: user?.id ?? null });
  } catch (error) {
    if (error instanceof InvalidCursorError) return <Problem message="That page link is no longer valid." mode={query.mode} />;
    throw error;
  }
  const { mode, period, bucket } = board;
  const rules = PERIODS[period];
  const now = new Date();
  const current = rules.bucketOf(now);
  const reset = nextReset(period, now);
  const buckets = recentBuckets(period, now);
  if (!buckets.includes(bucket)) buckets.push(bucket);
  const previous = shiftBucket(period, bucket, -1);
  const next = bucket === current ? null : shiftBucket(period, bucket, 1);
  /** Kept across mode tabs and back to the first page when it is a past board. */
  const past = bucket === current ? undefined : bucket;

  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <PageHeading>Leaderboards</PageHeading>
          <p className="text-sm text-muted">Every result here was re-simulated by the server from its replay.</p>
        </div>
        <BoardKindTabs active="solo" />
      </header>
      <div className="flex flex-wrap items-center gap-4">
        <Tabs
          label="Mode"
          tabs={MODE_ORDER.map((m) => ({ href: boardHref({ mode: m, period, bucket: past }), label: MODE_INFO[m].label, active: m === mode }))}
        />
        <Tabs
          label="Period"
          tabs={PERIOD_IDS.map((p) => ({ href: boardHref({ mode, period: p }), label: PERIODS[p].tab, active: p === period && bucket === current }))}
        />
        {rules.unit ? (
          <>
            <div className="flex items-center gap-3 text-sm" aria-label={rules.unit}>
              {previous ? <Link className="hover:underline" href={boardHref({ mode, period, bucket: previous })}>← {previous}</Link> : null}
              <span className="font-mono font-semibold" data-testid="board-bucket">{bucket}</span>
              {next ? <Link className="hover:underline" href={boardHref({ mode, period, bucket: next })}>{next} →</Link> : null}
            </div>
            <PeriodPicker key={bucket} mode={mode} period={period} label={rules.unit} buckets={buckets} selected={bucket} />
          </>
        ) : null}
        {reset && bucket === current ? <ResetCountdown until={reset.toISOString()} initial={formatCountdown(reset.getTime() - now.getTime())} /> : null}
      </div>
      {board.me ? (
        <p className="text-sm" data-testid="my-rank">
          Your best: <strong>#{board.me.rank}</strong> with {formatResult(mode, board.me)}
        </p>
      ) : null}
      <BoardTable mode={mode} rows={board.rows} me={board.me} />
      <div className="flex justify-between text-sm">
        {query.cursor ? <Link className="hover:underline" href={boardHref({ mode, period, bucket: past })}>← First page</Link> : <span />}
        {board.nextCursor ? (
          <Link className="hover:underline" href={boardHref({ mode, period, bucket, cursor: board.nextCursor })}>
            Next page →
          </Link>
        ) : null}
      </div>
    </div>
  );
}

function Problem({ message, mode }: { message: string; mode?: string | string[] }) {
  return (
    <div className="space-y-3">
      <PageHeading>Leaderboards</PageHeading>
      <p role="alert" className="text-danger">{message}</p>
      <Link href={boardHref({ mode: typeof mode === 'string' && isMode(mode) ? mode : MODE_ORDER[0]! })} className="link">Back to the board</Link>
    </div>
  );
}
