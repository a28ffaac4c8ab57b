import Link from 'next/link';
import type { HistoryEntry } from '@/lib/server/versus/history';
import { PlayerLink } from '@/components/boards/PlayerLink';
import { formatDate } from '@/lib/ui/format';
import { matchHref } from '@/lib/ui/links';
import { isVersusModeName, VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { formatRating, formatRatingChange, formatSetScore } from '@/lib/ui/versus';
import { seatName } from '@/lib/ui/players';
import { TABLE_FRAME, TABLE_HEAD } from '@/components/ui/table-class';

/** A player's versus matches, newest first: opponent, result and set score, rating change, and the match replay. */
export function MatchHistory({ entries }: { entries: HistoryEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted" data-testid="match-history">No versus matches yet.</p>;
  return (
    <div className={TABLE_FRAME}>
      <table className="w-full text-left text-sm" data-testid="match-history">
        <thead className={TABLE_HEAD}>
          <tr>
            <th className="px-4 py-2">Date</th>
            <th className="px-4 py-2">Mode</th>
            <th className="px-4 py-2">Opponent</th>
            <th className="px-4 py-2">Result</th>
            <th className="px-4 py-2 text-right">Rating</th>
            <th className="px-4 py-2">
              <span className="sr-only">Replay</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.matchId} className="border-t border-line" data-testid="match-row" data-match={e.matchId}>
              <td className="px-4 py-2 text-muted">{formatDate(e.playedAt)}</td>
              <td className="px-4 py-2">{isVersusModeName(e.mode) ? VERSUS_MODE_INFO[e.mode].label : e.mode}</td>
              <td className="px-4 py-2 font-medium">{e.opponent ? <PlayerLink username={e.opponent.username} /> : seatName({ player: null, guestTag: e.opponentTag, bot: e.opponentBot })}</td>
              <td className="px-4 py-2">
                <span className={e.won ? 'font-semibold' : ''}>{e.won ? 'Won' : 'Lost'}</span> <span className="font-mono">{formatSetScore(e.score)}</span>
                {e.voided ? <span className="ml-2 text-xs text-muted" data-testid="match-void">void</span> : e.noContest ? <span className="ml-2 text-xs text-muted">no contest</span> : null}
              </td>
              <td className="px-4 py-2 text-right font-mono" data-testid="rating-change">
                {e.ratingBefore !== null && e.ratingAfter !== null ? (
                  <>
                    {formatRating(e.ratingAfter)} <span className="text-muted">({formatRatingChange(e.ratingBefore, e.ratingAfter)})</span>
                  </>
                ) : (
                  <span className="text-muted">unranked</span>
                )}
              </td>
              <td className="px-4 py-2">
                <Link href={matchHref(e.matchId)} className="link">
                  Watch
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
