import { describe, expect, it } from 'vitest';
import { countsDown } from '@/lib/client/countdown';

describe('when a game counts down', () => {
  it('counts down for the first game of the page only, unless every game should', () => {
    expect(countsDown('first', 0)).toBe(true);
    expect(countsDown('first', 1)).toBe(false);
    expect(countsDown('first', 7)).toBe(false);
    expect(countsDown('every', 0)).toBe(true);
    expect(countsDown('every', 3)).toBe(true);
  });
});
