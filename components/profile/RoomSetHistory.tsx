import Link from 'next/link';
import type { RoomSetEntry } from '@/lib/server/versus/room-sets';
import { formatDate } from '@/lib/ui/format';
import { roomSetHref } from '@/lib/ui/links';
import { isVersusModeName, VERSUS_MODE_INFO } from '@/lib/ui/modes';
import { TABLE_FRAME, TABLE_HEAD } from '@/components/ui/table-class';

/** A player's room sets, newest first: the room's size, teams or free-for-all, the result, and the viewer. */
export function RoomSetHistory({ entries }: { entries: RoomSetEntry[] }) {
  if (entries.length === 0) return <p className="text-sm text-muted" data-testid="room-set-history">No room sets yet.</p>;
  return (
    <div className={TABLE_FRAME}>
      <table className="w-full text-left text-sm" data-testid="room-set-history">
        <thead className={TABLE_HEAD}>
          <tr>
            <th className="px-4 py-2">Date</th>
            <th className="px-4 py-2">Mode</th>
            <th className="px-4 py-2">Room</th>
            <th className="px-4 py-2">Result</th>
            <th className="px-4 py-2">
              <span className="sr-only">Replay</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.matchId} className="border-t border-line" data-testid="room-set-row" data-match={e.matchId}>
              <td className="px-4 py-2 text-muted">{formatDate(e.playedAt)}</td>
              <td className="px-4 py-2">{isVersusModeName(e.mode) ? VERSUS_MODE_INFO[e.mode].label : e.mode}</td>
              <td className="px-4 py-2">
                {e.seats} players · {e.teams === e.seats ? 'free-for-all' : `${e.teams} teams`}
                {e.ranked ? ' · ranked' : ''}
              </td>
              <td className={`px-4 py-2 ${e.won ? 'font-semibold' : ''}`}>{e.won ? 'Won' : 'Lost'}</td>
              <td className="px-4 py-2">
                <Link href={roomSetHref(e.matchId)} className="link">
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
