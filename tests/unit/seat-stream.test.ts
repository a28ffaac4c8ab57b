import { describe, expect, it } from 'vitest';
import { holeSequence, pieceSequence, RULES_VERSION } from '@/lib/engine';
import { PACING } from '@/lib/server/live/pacing';
import { SeatStream } from '@/lib/server/live/seat-stream';

const stream = (nextCount = 5, t0 = 1_000) => new SeatStream(pieceSequence('seat-stream', RULES_VERSION), nextCount, t0);

describe('a seat stream (what a solo game and a match seat share)', () => {
  it('takes batches in order, calls a resend "again", and refuses a gap', () => {
    const s = stream();
    expect(s.order(1)).toBe('next');
    s.accept(1);
    expect(s.order(1)).toBe('again');
    expect(s.order(2)).toBe('next');
    expect(s.order(4)).toEqual({ code: 'out_of_order', message: 'Batch 4 arrived, 2 was expected.' });
  });

  it('deals Dig hole columns two rows past the rows risen, never further and never past the mode\'s rows', () => {
    const holes = holeSequence('seat-stream', 'dig18');
    const s = new SeatStream(pieceSequence('seat-stream', RULES_VERSION), 5, 1_000, { draw: holes, rows: 18 });
    expect(s.topUpHoles(10)).toEqual({ from: 0, columns: s.holes.slice(0, 12) });
    expect(s.topUpHoles(10)).toBeNull();
    expect(s.topUpHoles(11)).toEqual({ from: 12, columns: [s.holes[12]] });
    expect(s.topUpHoles(17)).toEqual({ from: 13, columns: s.holes.slice(13) });
    expect(s.holes).toHaveLength(18);
    const again = holeSequence('seat-stream', 'dig18');
    expect(s.holes).toEqual(s.holes.map(() => again()));
    // Other modes have no holes to deal.
    expect(stream().topUpHoles(40)).toBeNull();
  });

  it('deals the preview and one spare past the current piece, never further, in the generator\'s order', () => {
    const s = stream(3);
    expect(s.topUp(1)).toEqual({ from: 0, pieces: s.dealt.slice(0, 5) });
    expect(s.dealt).toHaveLength(1 + 3 + 1);
    // Nothing taken since: nothing more is dealt, however often it is asked.
    expect(s.topUp(1)).toBeNull();
    expect(s.ahead(1)).toBe(4);
    const more = s.topUp(3);
    expect(more).toEqual({ from: 5, pieces: s.dealt.slice(5) });
    expect(s.dealt).toHaveLength(3 + 3 + 1);
    const again = pieceSequence('seat-stream', RULES_VERSION);
    expect(s.dealt).toEqual(s.dealt.map(() => again()));
  });

  it('paces the stream against its own clock, with excused time taken off', () => {
    const s = stream(5, 1_000);
    // 600 ticks are 10 s of play.
    expect(s.pace(600, 1_000 + 10_000 - PACING.aheadSlackMs - 1, 3_000)).toBe('ahead');
    expect(s.pace(600, 1_000 + 10_000, 3_000)).toBe('ok');
    expect(s.pace(600, 1_000 + 13_001, 3_000)).toBe('behind');
    s.excusedMs = 2_000;
    expect(s.pace(600, 1_000 + 13_001, 3_000)).toBe('ok');
    expect(s.pace(600, 1_000 + 15_001, 3_000)).toBe('behind');
  });

  it('excuses a stall of ours only from the clock\'s start, and only while the stream trails that far', () => {
    const s = stream(5, 5_000);
    // A 4 s stall that began in the countdown: 1 s of it was the stream's time.
    s.excuseStall(4_000, 6_000);
    expect(s.stalledMs).toBe(1_000);
    s.excuseStall(2_500, 10_000);
    expect(s.stalledMs).toBe(3_500);
    expect(s.pace(0, 10_000, 2_000)).toBe('ok');
    // Caught up to 1 s behind: 1 s of credit is left, none to think with later.
    s.settleStalls(240, 10_000);
    expect(s.stalledMs).toBe(1_000);
    expect(s.pace(240, 12_500, 3_000)).toBe('ok');
    expect(s.pace(240, 13_001, 3_000)).toBe('behind');
  });

  it('counts time away from the drop, never from before its clock started', () => {
    const s = stream(5, 5_000);
    expect(s.awayFor(9_000)).toBe(0);
    // Dropped during a countdown: away only from the clock's start.
    s.drop(3_000);
    expect(s.goneAt).toBe(5_000);
    expect(s.awayFor(4_000)).toBe(0);
    expect(s.awayFor(7_500)).toBe(2_500);
    expect(s.back(8_000)).toBe(3_000);
    expect(s.goneAt).toBeNull();
    expect(s.back(9_000)).toBe(0);
  });
});
