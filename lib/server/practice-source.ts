import 'server-only';
import type { SandboxSource } from '@/lib/client/sandbox-source';
import { fumenParam } from '@/lib/fumen';
import { getReplay } from '@/lib/server/games/replays';
import { getStoredMatch } from '@/lib/server/versus/matches';
import { getStoredRoomSet } from '@/lib/server/versus/room-sets';
import { atMoment, matchHref, roomSetHref } from '@/lib/ui/links';
import { roomSeatName, seatName } from '@/lib/ui/players';
import type { PracticeQuery } from '@/lib/validations/practice';

export interface PracticeStart {
  source: SandboxSource;
  /** The viewer the moment came from, at that moment. */
  from: { href: string; label: string } | null;
  /** What could not be opened, in words; the sandbox then opens empty. */
  problem: string | null;
}

/**
 * What `/practice` opens for its query: a stored replay's moment (a solo game's, or one seat's of
 * a stored match, which is as public as the match page), a fumen, or an empty board.
 */
export async function practiceStart(query: PracticeQuery): Promise<PracticeStart> {
  const tick = query.tick ?? 0;
  if (query.replay) {
    const record = await getReplay({ gameId: query.replay });
    if (!record) return empty('That replay does not exist (or no longer does), so here is an empty board.');
    return {
      source: { kind: 'replay', encoded: record.replay, tick },
      from: { href: atMoment(`/replays/${record.game.id}`, tick), label: `${record.game.player?.username ?? 'Guest'}'s replay` },
      problem: null,
    };
  }
  if (query.match) {
    if (query.seat === undefined || query.seat > 1) return empty('That link names no seat of the match (0 or 1), so here is an empty board.');
    const match = await getStoredMatch({ matchId: query.match });
    const number = query.game ?? 1;
    const game = match?.games[number - 1];
    if (!match || !game) return empty('That match game does not exist (or no longer does), so here is an empty board.');
    const seat = query.seat === 1 ? 1 : 0;
    return {
      source: { kind: 'replay', encoded: game.replays[seat], tick },
      from: { href: atMoment(matchHref(match.id, { game: number }), tick), label: `${seatName(match.seats[seat])}'s field in game ${number}` },
      problem: null,
    };
  }
  if (query.room) return roomStart(query.room, query.game ?? 1, query.seat, tick);
  if (query.fumen) return { source: { kind: 'fumen', text: fumenParam(query.fumen), page: (query.page ?? 1) - 1 }, from: null, problem: null };
  return { source: { kind: 'empty' }, from: null, problem: null };
}

/**
 * One seat's field in a stored room set's game: that seat's replay alone, which holds the garbage
 * the referee routed to it (verified when stored), so its board at the tick is the viewer's.
 */
async function roomStart(matchId: string, number: number, seat: number | undefined, tick: number): Promise<PracticeStart> {
  const set = await getStoredRoomSet({ matchId });
  const game = set?.games[number - 1];
  if (!set || !game) return empty('That room set game does not exist (or no longer does), so here is an empty board.');
  const encoded = seat === undefined ? undefined : game.replays[seat];
  if (seat === undefined || encoded === undefined) return empty(`That link names no seat of the room (0–${set.seats - 1}), so here is an empty board.`);
  return {
    source: { kind: 'replay', encoded, tick },
    from: { href: atMoment(roomSetHref(set.id, { game: number }), tick), label: `${roomSeatName(set.players[seat]!)}'s field in game ${number}` },
    problem: null,
  };
}

const empty = (problem: string): PracticeStart => ({ source: { kind: 'empty' }, from: null, problem });
