import { describe, expect, it } from 'vitest';
import { simulateReplay } from '@/lib/engine';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { botGame } from '../support/replays';

describe('ReplayPlayer', () => {
  const { replay } = botGame('sprint', 'viewer-seed');
  const verified = simulateReplay(replay);

  it('plays a replay to the same end the server verified', () => {
    const player = new ReplayPlayer(replay);
    let locks = 0;
    while (!player.over) locks += player.step().filter((e) => e.type === 'lock').length;
    const end = player.snapshot();
    expect([end.score, end.lines, end.tick, end.pieces]).toEqual([verified.score, verified.lines, verified.ticks, verified.pieces]);
    expect(locks).toBe(verified.pieces);
  });

  it('seeks backwards and forwards to identical states', () => {
    const player = new ReplayPlayer(replay);
    player.seek(400);
    const at400 = player.snapshot();
    player.seek(700);
    player.seek(400);
    expect(player.snapshot()).toEqual(at400);
    player.seek(1_000_000);
    expect(player.snapshot().tick).toBe(verified.ticks);
  });
});
