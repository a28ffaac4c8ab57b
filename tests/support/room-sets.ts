// Room sets played by test bots through the N-seat referee, set by set (RoomMatch), and the
// record a room host stores for them: for tests that need a stored set without a live room.
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, RoomMatch, type RoomRules } from '@/lib/engine';
import { roomRecordOf, type RoomMatchRecord } from '@/lib/server/versus/room-verify';
import { VersusBot, type VersusBotOptions } from '@/tests/support/versus-bot';

/** A set of `bots.length` seats to `rules.firstTo`; the same seed always gives the same set. */
export function botRoomSet(seed: string, rules: Partial<RoomRules>, bots: VersusBotOptions[]): RoomMatchRecord {
  const full: RoomRules = { ...DEFAULT_ROOM_RULES, firstTo: 1, ...rules };
  const match = new RoomMatch({ mode: 'battle', seed, rules: full, handling: bots.map(() => DEFAULT_HANDLING) });
  for (let n = 0; n < 40; n++) {
    const game = match.current;
    const players = bots.map((o, s) => new VersusBot({ ...o, seed: `${o.seed}/${n}/${s}` }));
    for (let t = 0; !game.outcome && t < 60_000; t++) for (let s = 0; s < game.seats && !game.outcome; s++) if (!game.isOut(s)) game.play(s, players[s]!.inputs(game, s));
    if (!match.advance()) break;
  }
  if (match.winner === null) throw new Error(`${seed}: the set did not end`);
  return roomRecordOf(match, seed, 'battle');
}

/** A four-seat free-for-all to two wins, garbage for everyone: the viewer's tests. */
export const fourSeatSet = () =>
  botRoomSet('room-set-4', { firstTo: 2, messiness: 20 }, [
    { seed: 'a', mistakes: 0.08 }, { seed: 'b', mistakes: 0.1, pace: 2 }, { seed: 'c', mistakes: 0.12 }, { seed: 'd', mistakes: 0.1, pace: 4 },
  ]);
