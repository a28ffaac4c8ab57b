import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeReplay, replayRoom, type Replay, type RoomOutcome, type RoomRules } from '@/lib/engine';
import { RoomPlayer, type RoomGameSource } from '@/lib/client/room-player';
import { gameAtTick } from '@/lib/client/sandbox-start';

interface RoomGolden {
  name: string;
  seed: string;
  rules: RoomRules;
  outcome: RoomOutcome;
  placements: number[];
  seats: Array<{ encoded: string }>;
}

const dir = new URL('../fixtures/room-replays/', import.meta.url);
const goldens = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as RoomGolden);

const sourceOf = (g: RoomGolden): RoomGameSource => ({
  mode: 'battle', seed: g.seed, rules: g.rules, replays: g.seats.map((s) => decodeReplay(s.encoded)), leaves: [], endTick: g.outcome.tick,
});

/** A fresh player walked tick by tick to `tick`: what any seek must land on. */
function walked(source: RoomGameSource, tick: number): string {
  const p = new RoomPlayer(source);
  while (p.tick < tick) p.step();
  return p.hash();
}

describe('the room set viewer’s playback (RoomPlayer)', () => {
  it.each(goldens.map((g) => [g.name, g] as const))('%s: plays through the referee to the stored end, every seat on the verified state', (_name, g) => {
    const source = sourceOf(g);
    const player = new RoomPlayer(source);
    expect(player.outcome).toEqual(g.outcome);
    const { game } = replayRoom({ mode: 'battle', seed: g.seed, rules: g.rules }, source.replays);
    player.seek(player.endTick);
    expect(player.hash()).toBe(Array.from({ length: 4 }, (_, s) => game.game(s).hash()).join(' '));
    // KOs as they happened: the seats out, in the order the referee put them out.
    expect(player.kos.map((k) => k.seat)).toEqual(g.placements.filter((s) => game.isOut(s)));
    expect(player.snapshot().out).toEqual([0, 1, 2, 3].map((s) => game.isOut(s)));
  });

  it.each(goldens.map((g) => [g.name, g] as const))('%s: the attack log is exactly the garbage each seat received (sender, rows, tick)', (_name, g) => {
    const source = sourceOf(g);
    const player = new RoomPlayer(source);
    expect(player.attacks.length).toBeGreaterThan(0);
    for (const a of player.attacks) expect(g.rules.teams?.[a.to] ?? a.to).not.toBe(g.rules.teams?.[a.from] ?? a.from);
    source.replays.forEach((r: Replay, seat) => {
      // An attack sent on tick t joins the target's queue before its tick t + 1 (what the replay records).
      const received = player.attacks.filter((a) => a.to === seat && a.tick + 1 < player.endTick).map((a) => ({ tick: a.tick + 1, size: a.size }));
      expect(received, `seat ${seat}`).toEqual(r.garbage!.filter((x) => x.tick < player.endTick));
    });
  });

  it('seeks anywhere, in any order, onto the state a walk from the start reaches', () => {
    const source = sourceOf(goldens[0]!);
    const player = new RoomPlayer(source, 50);
    const end = player.endTick;
    for (const t of [end, 7, Math.floor(end / 2), 51, 50, 49, end - 1, 0, Math.floor(end / 3) + 13]) {
      player.seek(t);
      expect({ t, hash: player.hash() }).toEqual({ t, hash: walked(source, t) });
    }
    expect(player.pieceBoundary(1)).toBeGreaterThan(player.tick);
  });

  it.each([[0, 300], [2, 900], [3, 650], [1, 1500]])('seat %i at tick %i: the practice board from that seat’s replay alone is the viewer’s field there', (seat, tick) => {
    const g = goldens[0]!;
    const player = new RoomPlayer(sourceOf(g));
    player.seek(tick);
    const practice = gameAtTick(decodeReplay(g.seats[seat]!.encoded), tick);
    const field = player.snapshot().fields[seat]!;
    expect(practice.snapshot().board).toEqual(field.board);
    expect(practice.snapshot().active).toEqual(field.active);
    expect(practice.garbageQueued).toBe(field.garbageQueued);
    expect(practice.hash()).toBe(player.hash().split(' ')[seat]);
  });
});

it('the practice board includes rows routed on the tick before: they are in the viewer’s queue, about to rise', () => {
  const g = goldens[0]!;
  const player = new RoomPlayer(sourceOf(g));
  for (const a of player.attacks.filter((x, i) => i % 3 === 0)) {
    const tick = a.tick + 1;
    player.seek(tick);
    const practice = gameAtTick(decodeReplay(g.seats[a.to]!.encoded), tick);
    expect({ tick, queued: practice.garbageQueued, hash: practice.hash() }).toEqual({ tick, queued: player.snapshot().fields[a.to]!.garbageQueued, hash: player.hash().split(' ')[a.to] });
  }
});

describe('RoomGame.clone', () => {
  it('plays on exactly as the original, and leaves it untouched', () => {
    const g = goldens[1]!;
    const source = sourceOf(g);
    const half = Math.floor(g.outcome.tick / 2);
    const a = new RoomPlayer(source);
    a.seek(half);
    const before = a.hash();
    const straight = new RoomPlayer(source);
    straight.seek(g.outcome.tick + 1);
    // The player's seeks restore clones of its checkpoints: a walk over several of them must end as a straight run.
    a.seek(g.outcome.tick + 1);
    expect(a.hash()).toBe(straight.hash());
    a.seek(half);
    expect(a.hash()).toBe(before);
  });
});
