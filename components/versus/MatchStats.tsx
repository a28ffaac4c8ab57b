import type { SeatGameStats } from '@/lib/server/versus/field-stats';
import { formatRateOf, RATE_KEYS, RATE_TEXT } from '@/lib/ui/stats';
import { rates } from '@/lib/versus/stats';
import { TABLE_FRAME, TABLE_HEAD } from '@/components/ui/table-class';

type Game = { index: number };
type Measured = Pick<SeatGameStats, 'pieces' | 'ticks' | 'attack' | 'garbageCleared'>;

/**
 * Each seat's pieces, attack and garbage cleared per game of the set, with PPS, APM and VS, and
 * the set's totals. The figures are the feature rows measured from the verified replays; a
 * guest's seat has none, and a game stored before attack was kept has PPS only.
 */
export function MatchStats({ games, names, stats }: { games: readonly Game[]; names: readonly [string, string]; stats: readonly SeatGameStats[] }) {
  const of = (game: number, seat: 0 | 1) => stats.find((s) => s.gameIndex === game && s.seat === seat) ?? null;
  const missing = games.some((g) => ([0, 1] as const).some((seat) => of(g.index, seat)?.attack == null));
  const total = (seat: 0 | 1): Measured | null => {
    const rows = games.map((g) => of(g.index, seat));
    return rows.every((r) => r !== null) ? totalsOf(rows) : null;
  };
  return (
    <div className="space-y-1">
      <div className={TABLE_FRAME}>
        <table className="w-full text-left text-sm" data-testid="match-stats">
          <thead className={TABLE_HEAD}>
            <tr>
              <th className="px-2 py-2 sm:px-3">Game</th>
              <th className="px-2 py-2 sm:px-3">Player</th>
              {RATE_KEYS.map((k) => (
                <th key={k} className="px-2 py-2 sm:px-3 text-right"><abbr title={RATE_TEXT[k].title} className="no-underline">{RATE_TEXT[k].label}</abbr></th>
              ))}
              <th className="px-2 py-2 sm:px-3 text-right">Pieces</th>
              <th className="px-2 py-2 sm:px-3 text-right">Attack</th>
              <th className="px-2 py-2 sm:px-3 text-right"><abbr title="garbage rows cleared" className="no-underline">Cleared</abbr></th>
            </tr>
          </thead>
          <tbody className="font-mono tabular-nums">
            {games.flatMap((g) => ([0, 1] as const).map((seat) => (
              <Row key={`${g.index}-${seat}`} game={`${g.index + 1}`} name={names[seat]} seat={seat} row={of(g.index, seat)} />
            )))}
            {games.length > 1
              ? ([0, 1] as const).map((seat) => <Row key={`all-${seat}`} game="Set" name={names[seat]} seat={seat} row={total(seat)} />)
              : null}
          </tbody>
        </table>
      </div>
      {missing ? (
        <p className="text-xs text-muted" data-testid="match-stats-missing">
          A dash is a figure not measured: they are measured from the verified replays shortly after a match is stored, for players with an account, and games stored before attack was measured show PPS only.
        </p>
      ) : null}
    </div>
  );
}

function Row({ game, name, seat, row }: { game: string; name: string; seat: 0 | 1; row: Measured | null }) {
  const r = row && row.attack !== null ? rates({ attack: row.attack, garbageCleared: row.garbageCleared ?? 0 }, row.pieces, row.ticks) : null;
  const pps = row ? rates({ attack: 0, garbageCleared: 0 }, row.pieces, row.ticks).pps : null;
  const cell = 'px-2 py-1.5 text-right sm:px-3';
  return (
    <tr className={`border-t border-line${game === 'Set' ? ' font-semibold' : ''}`} data-testid="match-stats-row" data-game={game} data-seat={seat}>
      <td className="px-2 py-1.5 font-sans sm:px-3">{game}</td>
      <td className="max-w-[8rem] truncate px-2 py-1.5 font-sans sm:px-3">{name}</td>
      {RATE_KEYS.map((k) => (
        <td key={k} className={cell} data-rate={k}>{k === 'pps' && pps !== null ? formatRateOf(k, pps) : r ? formatRateOf(k, r[k]) : '—'}</td>
      ))}
      <td className={cell}>{row ? row.pieces : '—'}</td>
      <td className={cell}>{row?.attack ?? '—'}</td>
      <td className={cell}>{row?.garbageCleared ?? '—'}</td>
    </tr>
  );
}

/** The set's totals: attack (and so APM and VS) only when every game has it. */
function totalsOf(rows: readonly Measured[]): Measured {
  const sum = (f: (r: Measured) => number) => rows.reduce((s, r) => s + f(r), 0);
  const attackKnown = rows.every((r) => r.attack !== null);
  return {
    pieces: sum((r) => r.pieces),
    ticks: sum((r) => r.ticks),
    attack: attackKnown ? sum((r) => r.attack ?? 0) : null,
    garbageCleared: attackKnown ? sum((r) => r.garbageCleared ?? 0) : null,
  };
}
