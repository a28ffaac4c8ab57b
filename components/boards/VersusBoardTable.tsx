import type { MyRatingRow, RatingRow, WinsRow } from '@/lib/server/versus/boards';
import type { SeasonRow } from '@/lib/server/versus/season-boards';
import { RankedTable, type Column } from '@/components/boards/RankedTable';
import { formatDate } from '@/lib/ui/format';
import { formatRating } from '@/lib/ui/versus';
import { PROVISIONAL_TEXT } from '@/components/versus/provisional';
import { BandBadge } from '@/components/versus/BandBadge';
import type { BandId } from '@/lib/versus/bands';

type RatingLine = Omit<RatingRow, 'rank' | 'band'> & { rank: number | null; band: BandId | null; provisional?: boolean };

const RATING_COLUMNS: Array<Column<RatingLine>> = [
  { header: 'Rating', align: 'right', cell: (r) => formatRating(r.rating, r.provisional) },
  { header: <abbr title="Rank band: where the rating stands among the players active in the last weeks">Band</abbr>, cell: (r) => (r.band ? <BandBadge band={r.band} /> : '—') },
  { header: <abbr title="Rating deviation: how sure the rating is">RD</abbr>, align: 'right', wide: true, cell: (r) => Math.round(r.rd) },
  { header: 'Matches', align: 'right', wide: true, cell: (r) => r.matches },
  { header: 'Wins', align: 'right', cell: (r) => r.wins },
];

const WINS_COLUMNS: Array<Column<WinsRow>> = [
  { header: 'Wins', align: 'right', cell: (r) => r.wins },
  { header: 'Last win', muted: true, wide: true, cell: (r) => formatDate(r.lastWinAt) },
];

const byPlayer = (r: { player: { id: string } }) => r.player.id;

/** A versus mode's rating board: established players only; a provisional viewer's pinned row says why it has no rank. */
export function RatingTable({ rows, me }: { rows: RatingRow[]; me: MyRatingRow | null }) {
  return (
    <RankedTable<RatingLine>
      columns={RATING_COLUMNS}
      rows={rows}
      me={me}
      keyOf={byPlayer}
      empty="No established ratings yet: a rating joins the board once it has settled."
      pinnedNote={me?.provisional ? PROVISIONAL_TEXT : undefined}
    />
  );
}

/** This week's most ranked wins in a versus mode. */
export function WinsTable({ rows, me }: { rows: WinsRow[]; me: WinsRow | null }) {
  return <RankedTable columns={WINS_COLUMNS} rows={rows} me={me} keyOf={byPlayer} empty="No ranked wins this week yet." />;
}

const SEASON_COLUMNS: Array<Column<SeasonRow>> = [
  { header: 'Final rating', align: 'right', cell: (r) => formatRating(r.rating) },
  { header: 'Band', cell: (r) => <BandBadge band={r.band} /> },
  { header: <abbr title="The best band shown after a match of the season">Peak</abbr>, cell: (r) => (r.peakBand ? <BandBadge band={r.peakBand} /> : '—') },
  { header: 'Matches', align: 'right', wide: true, cell: (r) => r.matches },
  { header: 'Wins', align: 'right', wide: true, cell: (r) => r.wins },
];

/** A closed season's rating board: where its established players ended it. */
export function SeasonTable({ rows }: { rows: SeasonRow[] }) {
  return <RankedTable columns={SEASON_COLUMNS} rows={rows} me={null} keyOf={byPlayer} empty="Nobody ended this season with a settled rating." />;
}
