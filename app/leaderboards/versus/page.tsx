import type { Metadata } from 'next';
import Link from 'next/link';
import { BoardKindTabs } from '@/components/boards/BoardKindTabs';
import { ResetCountdown } from '@/components/boards/ResetCountdown';
import { Tabs } from '@/components/boards/Tabs';
import { SeasonTabs } from '@/components/boards/SeasonTabs';
import { RatingTable, SeasonTable, WinsTable } from '@/components/boards/VersusBoardTable';
import { BandLegend } from '@/components/versus/BandLegend';
import { VERSUS_MODE_NAMES } from '@/lib/engine';
import { nextReset } from '@/lib/periods';
import { getSessionUser } from '@/lib/server/auth';
import { BAND_RULES } from '@/lib/server/versus/bands';
import { getVersusBoard, InvalidCursorError, type AnyVersusBoard } from '@/lib/server/versus/boards';
import { getSeasonBoard, type SeasonRow } from '@/lib/server/versus/season-boards';
import { formatCountdown } from '@/lib/ui/format';
import { versusBoardHref } from '@/lib/ui/links';
import { VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { formatPlacement, formatRating } from '@/lib/ui/versus';
import { BANDS } from '@/lib/versus/bands';
import { seasonParamSchema, versusBoardQuerySchema, type VersusBoardQuery } from '@/lib/validations/versus';
import { seasonAt } from '@/lib/versus/seasons';
import { PageHeading } from '@/components/ui/PageHeading';

export const metadata: Metadata = { title: 'Versus leaderboards' };

type Search = Record<string, string | string[] | undefined>;

const BOARD_TABS = [
  { board: 'rating', label: 'Rating' },
  { board: 'wins', label: 'Wins this week' },
] as const;

export default async function VersusBoardsPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  const parsed = versusBoardQuerySchema.safeParse({ ...search, mode: search.mode ?? VERSUS_MODE_NAMES[0], limit: 50 });
  if (!parsed.success) return <Problem message={parsed.error.issues[0]?.message ?? 'Invalid board query'} />;
  const query: VersusBoardQuery = parsed.data;
  const now = new Date();
  const current = seasonAt(now).number;
  const season = seasonParamSchema.safeParse(search.season);
  if (!season.success) return <Problem message={season.error.issues[0]?.message ?? 'Invalid season'} />;
  if ((season.data ?? current) > current) return <Problem message="That season has not started yet." />;
  const shown = season.data ?? current;
  const { mode } = query;
  // A closed season's board is its standings as they were closed; the running season's is the live one.
  const past: SeasonRow[] | null = query.board === 'rating' && shown < current ? await getSeasonBoard({ mode, season: shown, limit: query.limit }) : null;
  const user = await getSessionUser();
  let board: AnyVersusBoard;
  try {
    board = await getVersusBoard({ ...query, viewerId: user?.id ?? null });
  } catch (error) {
    if (error instanceof InvalidCursorError) return <Problem message="That page link is no longer valid." />;
    throw error;
  }
  const reset = nextReset('week', now);
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <PageHeading>Leaderboards</PageHeading>
          <p className="text-sm text-muted">Ranked versus matches, each proven by re-simulating both players’ replays.</p>
        </div>
        <BoardKindTabs active="versus" />
      </header>
      <div className="flex flex-wrap items-center gap-4">
        <Tabs label="Mode" tabs={VERSUS_MODE_NAMES.map((m) => ({ href: versusBoardHref({ mode: m, board: query.board }), label: VERSUS_MODE_INFO[m].label, active: m === mode }))} />
        <Tabs label="Board" tabs={BOARD_TABS.map((t) => ({ href: versusBoardHref({ mode, board: t.board }), label: t.label, active: t.board === query.board }))} />
        {board.board === 'wins' ? (
          <>
            <span className="font-mono text-sm font-semibold" data-testid="board-bucket">{board.week}</span>
            {reset ? <ResetCountdown until={reset.toISOString()} initial={formatCountdown(reset.getTime() - now.getTime())} /> : null}
          </>
        ) : null}
        {board.board === 'rating' ? <SeasonTabs mode={mode} current={current} shown={shown} /> : null}
      </div>
      {past ? (
        <SeasonTable rows={past} />
      ) : (
        <>
          <MyStanding board={board} />
          {board.board === 'rating' ? <RatingTable rows={board.rows} me={board.me} /> : <WinsTable rows={board.rows} me={board.me} />}
          {board.board === 'rating' ? <BandLegend activeDays={BAND_RULES.activeDays} /> : null}
        </>
      )}
      <div className="flex justify-between text-sm">
        {query.cursor ? <Link className="hover:underline" href={versusBoardHref({ mode, board: query.board })}>← First page</Link> : <span />}
        {board.nextCursor && !past ? (
          <Link className="hover:underline" href={versusBoardHref({ mode, board: query.board, cursor: board.nextCursor })}>
            Next page →
          </Link>
        ) : null}
      </div>
    </div>
  );
}

function MyStanding({ board }: { board: AnyVersusBoard }) {
  if (!board.me) return null;
  const text =
    board.board === 'rating'
      ? board.me.rank === null
        ? `Your rating: ${formatRating(board.me.rating, true)}, provisional${board.me.placement ? ` (${formatPlacement(board.me.placement)})` : ''}`
        : `Your rating: ${formatRating(board.me.rating)}, #${board.me.rank}${board.me.band ? ` · ${BANDS[board.me.band].label}` : ''}`
      : `Your wins this week: ${board.me.wins}, #${board.me.rank}`;
  return (
    <p className="text-sm" data-testid="my-rank">
      {text}
    </p>
  );
}

function Problem({ message }: { message: string }) {
  return (
    <div className="space-y-3">
      <PageHeading>Leaderboards</PageHeading>
      <p role="alert" className="text-danger">{message}</p>
      <Link href={versusBoardHref({ mode: VERSUS_MODE_NAMES[0] })} className="link">Back to the board</Link>
    </div>
  );
}
