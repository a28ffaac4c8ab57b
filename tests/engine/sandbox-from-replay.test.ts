import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gameAtTick } from '@/lib/client/sandbox-start';
import { Sandbox } from '@/lib/client/sandbox';
import { MAX_REPLAY_TICKS, simulateReplay, type InputEvent, type Replay } from '@/lib/engine';

const dir = new URL('../fixtures/replays/', import.meta.url);
const goldens = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { name: string; replay: Replay });

/** Feeds the replay's inputs from `from` on, tick by tick, until the game ends. */
function playOn(sandbox: Sandbox, replay: Replay, from: number): void {
  const events = replay.events.filter((e) => e.tick >= from);
  let i = 0;
  for (let t = from; !sandbox.over && t < MAX_REPLAY_TICKS; t++) {
    const inputs: InputEvent[] = [];
    while (i < events.length && events[i]!.tick === t) inputs.push({ key: events[i]!.key, down: events[i++]!.down });
    sandbox.tick(inputs);
  }
}

describe('a sandbox opened at a replay moment', () => {
  it.each(goldens.map((g) => [g.name, g.replay] as const))('%s: continues exactly as the original game, from any moment', (_name, replay) => {
    const original = simulateReplay(replay);
    const end = original.ticks;
    // The start, a few moments inside (one of them mid-DAS or mid-fall, whatever the replay held
    // there) and the last tick before the end.
    const moments = [0, 1, Math.floor(end / 4), Math.floor(end / 2) + 7, Math.floor((end * 3) / 4) + 13, end - 1];
    for (const moment of moments) {
      const sandbox = new Sandbox(gameAtTick(replay, moment));
      expect(sandbox.snapshot().tick).toBe(moment);
      playOn(sandbox, replay, moment);
      expect({ moment, hash: sandbox.hash() }).toEqual({ moment, hash: original.hash });
    }
  });

  it('comes back to the same future after undo and reset', () => {
    const replay = goldens.find((g) => g.name === 'sprint-40l')!.replay;
    const original = simulateReplay(replay);
    const moment = Math.floor(original.ticks / 3);
    const sandbox = new Sandbox(gameAtTick(replay, moment));
    const startHash = sandbox.hash();
    // Play on to the end, then undo every piece: back at the moment, the same state.
    playOn(sandbox, replay, moment);
    expect(sandbox.placed.length).toBeGreaterThan(10);
    while (sandbox.undo());
    expect(sandbox.placed).toHaveLength(0);
    expect(sandbox.canUndo).toBe(false);
    // The first piece's start is the moment itself only if a piece appeared exactly then; either
    // way, reset is the moment, and replaying from it ends as the original did.
    sandbox.reset();
    expect(sandbox.hash()).toBe(startHash);
    playOn(sandbox, replay, moment);
    expect(sandbox.hash()).toBe(original.hash);
  });
});
