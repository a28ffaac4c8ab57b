import { describe, expect, it } from 'vitest';
import { createGame, RULES_VERSION } from '@/lib/engine';
import { PRACTICE_GAME_ID, practiceTicket } from '@/lib/client/practice';

describe('practiceTicket', () => {
  it('makes a fresh local seed each game, which the engine accepts', () => {
    const a = practiceTicket('sprint');
    const b = practiceTicket('sprint');
    expect(a.seed).not.toBe(b.seed);
    expect(a.seed).toMatch(/^[0-9a-f]{24}$/);
    expect(a).toMatchObject({ gameId: PRACTICE_GAME_ID, mode: 'sprint', rulesVersion: RULES_VERSION });
    expect(() => createGame({ mode: 'sprint', seed: a.seed, handling: { das: 10, arr: 2, sdf: 20, dasCut: false } })).not.toThrow();
  });
});
