import type { Metadata } from 'next';
import Link from 'next/link';
import { BoardKindTabs } from '@/components/boards/BoardKindTabs';
import { PageHeading } from '@/components/ui/PageHeading';
import { getTeamBoard } from '@/lib/server/versus/team-boards';
import { formatRating } from '@/lib/ui/versus';

export const metadata: Metadata = { title: 'Ranked 2v2 leaderboard' };

/** The board shows this many; the rest of a large board is for a later page. */
const SHOWN = 100;

export default async function TeamBoardPage() {
  const rows = await getTeamBoard({ limit: SHOWN });
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <PageHeading>Leaderboards</PageHeading>
          <p className="text-sm text-muted">Ranked 2v2: each player’s own rating, moved by their team’s results.</p>
        </div>
        <BoardKindTabs active="teams" />
      </header>
      {rows.length === 0 ? (
        <p className="text-sm text-muted" data-testid="team-board-empty">Nobody has played their placement sets yet.</p>
      ) : (
        <table className="w-full text-sm" data-testid="team-board">
          <thead>
            <tr className="text-left text-muted">
              <th scope="col" className="py-1">#</th>
              <th scope="col">Player</th>
              <th scope="col" className="text-right">Rating</th>
              <th scope="col" className="text-right">Sets</th>
              <th scope="col" className="text-right">Wins</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.player.id} className="border-t border-line" data-testid="team-board-row">
                <td className="py-1">{r.rank}</td>
                <td>
                  <Link className="hover:underline" href={`/u/${encodeURIComponent(r.player.username)}`}>{r.player.username}</Link>
                </td>
                <td className="text-right font-mono">{formatRating(r.rating)}</td>
                <td className="text-right font-mono">{r.matches}</td>
                <td className="text-right font-mono">{r.wins}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
