import { describe, expect, it } from 'vitest';
import { DEFAULT_HANDLING, MAX_REPLAY_EVENTS, pieceSequence, ROOM_RULES_VERSION } from '@/lib/engine';
import { MatchSeat } from '@/lib/server/live/match/match-seat';

/**
 * A room seat's target changes are stored in its replay (rules 7), so they count against the
 * replay's bound as they arrive: a stream of them that no replay could hold is refused at the
 * batch, not found when the set is stored (where building the record would throw).
 */
describe('a room seat’s target changes count against the replay’s bound', () => {
  it('refuses the batch whose target changes pass the most a replay holds', () => {
    const seat = new MatchSeat({ owner: { userId: 'u', guestId: null }, player: { name: 'u', guest: false }, handling: DEFAULT_HANDLING, nextCount: 5 }, 't'.repeat(24));
    seat.newGame(pieceSequence('bound', ROOM_RULES_VERSION), 5, 0, 0, ROOM_RULES_VERSION);
    const batch = { game: 0, seq: 1, tick: 1, events: [] };
    expect(seat.admit(batch, new Map([[0, 1]]))).toBeNull();
    const flood = new Map<number, number>();
    for (let t = 1; t <= MAX_REPLAY_EVENTS; t++) flood.set(t, 1 + (t % 2));
    expect(seat.admit(batch, flood)).toMatchObject({ why: 'too_long' });
  });
});
