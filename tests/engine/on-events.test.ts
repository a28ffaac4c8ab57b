import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createGame, replayConfig, simulateReplay, type GameEvent, type Replay } from '@/lib/engine';

const dir = new URL('../fixtures/versus-replays/', import.meta.url);
const replays: Array<{ name: string; replay: Replay; maxTicks: number }> = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((f) => {
    const g = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { name: string; players: Array<{ replay: Replay; maxTicks: number }> };
    return g.players.map((p, seat) => ({ name: `${g.name} seat ${seat}`, replay: p.replay, maxTicks: p.maxTicks }));
  });

/** Each tick's events as interactive play emits them: garbage of the tick first, then its inputs. */
function played(replay: Replay, maxTicks: number): Array<[number, GameEvent[]]> {
  const game = createGame(replayConfig(replay));
  const out: Array<[number, GameEvent[]]> = [];
  for (let t = 0; t < maxTicks && !game.over; t++) {
    for (const g of replay.garbage ?? []) if (g.tick === t) game.receiveGarbage(g.size);
    const events = game.tick(replay.events.filter((e) => e.tick === t).map((e) => ({ key: e.key, down: e.down })));
    if (events.length > 0) out.push([t, [...events]]);
  }
  return out;
}

describe('simulateReplay onEvents', () => {
  it('hands over every tick’s events as play emits them, and the run ends where the quiet one does', () => {
    let rises = 0;
    for (const { name, replay, maxTicks } of replays) {
      const seen: Array<[number, GameEvent[]]> = [];
      const result = simulateReplay(replay, { maxTicks, onEvents: (events, tick) => seen.push([tick, [...events]]) });
      expect(seen, name).toEqual(played(replay, maxTicks));
      expect(result, name).toEqual(simulateReplay(replay, { maxTicks }));
      rises += seen.flatMap(([, events]) => events).filter((e) => e.type === 'garbageRise').length;
    }
    expect(rises).toBeGreaterThan(0);
  });
});
