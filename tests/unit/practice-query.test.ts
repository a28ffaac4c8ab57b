import { describe, expect, it } from 'vitest';
import { practiceQuerySchema } from '@/lib/validations/practice';

describe('practiceQuerySchema', () => {
  it('reads a replay moment and a fumen page', () => {
    expect(practiceQuerySchema.parse({ replay: 'abcdefgh12', tick: '360' })).toEqual({ replay: 'abcdefgh12', tick: 360 });
    expect(practiceQuerySchema.parse({ fumen: 'v115@vhA', page: ['2', '3'] })).toEqual({ fumen: 'v115@vhA', page: 2 });
  });

  it('reads a match seat moment, and drops a seat the match does not have', () => {
    expect(practiceQuerySchema.parse({ match: 'newcomer', game: '2', seat: '1', tick: '270' })).toEqual({ match: 'newcomer', game: 2, seat: 1, tick: 270 });
    // A seat past a match's two parses (a room has up to 16); the practice page then says the match has no such seat.
    expect(practiceQuerySchema.parse({ match: 'newcomer', game: '0', seat: '2' })).toEqual({ match: 'newcomer', seat: 2 });
    expect(practiceQuerySchema.parse({ room: 'set4', game: '3', seat: '15', tick: '10' })).toEqual({ room: 'set4', game: 3, seat: 15, tick: 10 });
    expect(practiceQuerySchema.parse({ room: 'set4', seat: '16' })).toEqual({ room: 'set4' });
    expect(practiceQuerySchema.parse({ room: 'set4', seat: '02' })).toEqual({ room: 'set4' });
    expect(practiceQuerySchema.parse({ match: 'a/b', seat: '0.5' })).toEqual({});
    expect(practiceQuerySchema.parse({ match: 'newcomer', seat: '' })).toEqual({ match: 'newcomer' });
  });

  it('keeps a page number the fumen may not have, so the sandbox can say there is no such page', () => {
    expect(practiceQuerySchema.parse({ fumen: 'v115@vhA', page: '0' })).toEqual({ fumen: 'v115@vhA', page: 0 });
    expect(practiceQuerySchema.parse({ fumen: 'v115@vhA', page: '50000' })).toEqual({ fumen: 'v115@vhA', page: 50000 });
  });

  it('drops what it cannot use instead of failing the page', () => {
    expect(practiceQuerySchema.parse({ replay: '../etc', tick: '-1', page: 'x', fumen: 'x'.repeat(9000) })).toEqual({});
  });
});
