import { describe, expect, it } from 'vitest';
import { decodeReplay, simulateReplay, VersusMatch, type Replay, type Snapshot } from '@/lib/engine';
import { attackTotals, pairAttacks } from '@/lib/client/attacks';
import { FieldsPlayer, type FieldEvent } from '@/lib/client/fields-player';
import { ReplayPlayback, type PlaybackView } from '@/lib/client/replay-playback';
import { ReplayPlayer } from '@/lib/client/replay-player';
import { recordOf } from '@/lib/server/versus/verify';
import { versusReplaySpan } from '@/lib/versus/replay-span';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const seed = 'fields-5'; // a set where both seats receive garbage (the last check needs seat 0 to)
const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
playMatch(match, [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4 })]);
const record = recordOf(match, seed, 'battle');

function fieldsOf(game: (typeof record.games)[number], interval = 64) {
  const replays = game.replays.map(decodeReplay) as [Replay, Replay];
  const players = replays.map((r) => new ReplayPlayer(r, interval, versusReplaySpan(r, game.endTick)));
  return { replays, fields: new FieldsPlayer(players) };
}

describe('FieldsPlayer on a versus game', () => {
  it('ends every field on the state verification stored (same hash as simulateReplay cut at the same span)', () => {
    for (const game of record.games) {
      const { replays, fields } = fieldsOf(game);
      fields.seek(fields.endTick);
      replays.forEach((r, i) => {
        const stored = simulateReplay(r, { maxTicks: versusReplaySpan(r, game.endTick) });
        expect(fields.fields[i]!.hash()).toBe(stored.hash);
        expect(fields.snapshot()[i]!.score).toBe(stored.score);
      });
      expect(fields.endTick).toBe(Math.max(...fields.fields.map((f) => f.endTick)));
    }
  });

  it('a seek lands where stepping from the start lands, on every field, in any order of seeks', () => {
    const game = record.games[0]!;
    const stepped = fieldsOf(game).fields;
    const hashes: string[] = [];
    while (!stepped.over) {
      hashes.push(stepped.hash());
      stepped.step();
    }
    hashes.push(stepped.hash());
    const seeker = fieldsOf(game).fields;
    for (const t of [stepped.endTick, 5, Math.floor(stepped.endTick / 2), 300, 0, stepped.endTick - 1, 129]) {
      seeker.seek(t);
      expect(seeker.tick).toBe(t);
      expect(seeker.hash()).toBe(hashes[t]);
    }
  });

  it('steps by piece across both fields’ pieces', () => {
    const { fields } = fieldsOf(record.games[0]!);
    const marks = fields.pieceTicks;
    expect(marks.length).toBeGreaterThan(fields.fields[0]!.pieceTicks.length);
    expect([...marks].sort((a, b) => a - b)).toEqual(marks);
    fields.seek(fields.pieceBoundary(1));
    expect(fields.tick).toBe(marks[0]);
    fields.seek(fields.pieceBoundary(1));
    expect(fields.tick).toBe(marks[1]);
    fields.seek(fields.pieceBoundary(-1));
    expect(fields.tick).toBe(marks[0]);
  });

  it('pairs each seat’s sends with what the other received, and counts them up to a moment', () => {
    for (const game of record.games) {
      const { replays, fields } = fieldsOf(game);
      const attacks = pairAttacks([fields.fields[0]!.sends, fields.fields[1]!.sends], [replays[0].garbage ?? [], replays[1].garbage ?? []]);
      for (const to of [0, 1] as const) {
        const received = replays[to].garbage ?? [];
        const arrived = attacks.filter((a) => a.to === to && a.joinedAt !== null);
        expect(arrived.map((a) => [a.joinedAt, a.size])).toEqual(received.map((g) => [g.tick, g.size]));
        // Garbage joins the queue at or after the tick it was sent.
        for (const a of arrived) expect(a.joinedAt!).toBeGreaterThanOrEqual(a.sentAt);
      }
      const end = attackTotals(attacks, fields.endTick + 1);
      expect(end[0].sent).toBe(simulateReplay(replays[0], { maxTicks: versusReplaySpan(replays[0], game.endTick) }).versus!.sent);
      expect(end[1].received).toBe(simulateReplay(replays[1], { maxTicks: versusReplaySpan(replays[1], game.endTick) }).versus!.received);
      expect(attackTotals(attacks, 0)).toEqual([{ sent: 0, received: 0 }, { sent: 0, received: 0 }]);
    }
    expect(record.games.some((g) => (decodeReplay(g.replays[0]).garbage ?? []).length > 0)).toBe(true);
  });

  it('drives the solo viewer’s playback: both fields advance on one clock, with events tagged by field', () => {
    const { fields } = fieldsOf(record.games[0]!);
    const views: Array<PlaybackView<Snapshot[]>> = [];
    const seen = new Set<number>();
    const playback = new ReplayPlayback<Snapshot[], FieldEvent>(fields, { draw: (_s, events) => events.forEach((e) => seen.add(e.field)), onChange: (v) => views.push(v) }, { playing: true });
    for (let now = 0; now <= 20_000; now += 50) playback.frame(now);
    const last = views.at(-1)!;
    expect(last.tick).toBe(Math.min(fields.endTick, 1200));
    expect(last.snap.map((s) => s.tick)).toEqual(fields.fields.map((f) => Math.min(f.endTick, last.tick)));
    expect([...seen].sort()).toEqual([0, 1]);
    playback.run('end');
    expect(views.at(-1)).toMatchObject({ tick: fields.endTick, playing: false });
  });
});
