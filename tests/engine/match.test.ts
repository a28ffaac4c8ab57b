import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACK_DEADLINE_TICKS, decodeReplay, encodeReplay, simulateReplay, VersusGame, VersusMatch, type GarbageMessage,
  type Player, type VersusMode,
} from '@/lib/engine';
import { HANDLING } from '@/tests/engine/helpers';
import { playMatch, VersusBot } from '@/tests/support/versus-bot';

const H = [HANDLING, HANDLING] as const;
const hardDrops = (t: number) => (t % 2 === 0 ? [{ key: 'hardDrop' as const, down: true }] : [{ key: 'hardDrop' as const, down: false }]);

function bots(seed: string, opts: { ackDelay?: number } = {}): [VersusBot, VersusBot] {
  return [new VersusBot({ seed: `${seed}/a`, mistakes: 0.1, ...opts }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.2, pace: 4, ...opts })];
}

function play(mode: VersusMode, seed: string, ackDelay?: number) {
  const match = new VersusMatch({ mode, seed, handling: H });
  const run = playMatch(match, bots(seed, { ackDelay }));
  return { match, run };
}

/** Every game's two replays, re-simulated alone, end in exactly the states the referee played. */
function expectReplaysReproduce(match: VersusMatch): void {
  for (const game of match.games) {
    for (const p of [0, 1] as const) {
      const replay = game.replay(p);
      const result = simulateReplay(decodeReplay(encodeReplay(replay)), { maxTicks: game.tickOf(p) });
      expect(result.hash, `game ${match.games.indexOf(game)} player ${p}`).toBe(game.game(p).hash());
      expect(result.versus!.received).toBe(replay.garbage!.reduce((n, g) => n + g.size, 0));
    }
  }
}

describe('versus referee', () => {
  it('same inputs, same match: score, outcomes and both replays of every game', () => {
    fc.assert(
      fc.property(fc.constantFrom<VersusMode>('battle', 'race30'), fc.string({ minLength: 1, maxLength: 8 }), (mode, seed) => {
        const a = play(mode, seed);
        const b = play(mode, seed);
        expect(b.match.score).toEqual(a.match.score);
        expect(b.match.games.map((g) => g.outcome)).toEqual(a.match.games.map((g) => g.outcome));
        expect(b.match.games.map((g) => [encodeReplay(g.replay(0)), encodeReplay(g.replay(1))])).toEqual(
          a.match.games.map((g) => [encodeReplay(g.replay(0)), encodeReplay(g.replay(1))]),
        );
        expect(a.match.winner).not.toBeNull();
        expect(Math.max(...a.match.score)).toBe(2);
        expectReplaysReproduce(a.match);
      }),
      { numRuns: 6 },
    );
  });

  it('routes exactly what each lock sent (its attack after cancelling, attack.test covers the cancelling); sent = received + still waiting', () => {
    for (const seed of ['r1', 'r2', 'r3', 'r4']) {
      const game = new VersusGame({ mode: 'battle', seed, handling: H });
      const [a, b] = [new VersusBot({ seed: `${seed}/a`, mistakes: 0.05 }), new VersusBot({ seed: `${seed}/b`, mistakes: 0.05 })];
      const routed: [number[], number[]] = [[], []];
      // Rows a lock sent to a game already over (topped out, not yet decided): nobody receives them.
      const unrouted: [number, number] = [0, 0];
      for (let t = 0; !game.outcome && t < 6000; t++) {
        for (const [p, bot] of [[0, a], [1, b]] as const) {
          const receiverOver = game.game(p === 0 ? 1 : 0).over;
          const r = game.tick(p, bot.inputs(game, p), bot.acks(game, p));
          routed[p].push(...r.sent.map((m) => m.size));
          const locks = r.events.filter((e) => e.type === 'lock');
          const total = locks.reduce((n, l) => n + l.sent, 0);
          expect(r.sent.map((m) => m.size)).toEqual(total > 0 && !receiverOver ? [total] : []);
          if (receiverOver) unrouted[p] += total;
        }
      }
      for (const p of [0, 1] as const) {
        const q: Player = p === 0 ? 1 : 0;
        const sends: Array<{ tick: number; size: number }> = [];
        const sent = simulateReplay(game.replay(p), { maxTicks: game.tickOf(p), sends }).versus!.sent;
        expect(sends.map((m) => m.size).slice(0, routed[p].length), 'the replay alone shows every message the referee routed').toEqual(routed[p]);
        const received = game.replay(q).garbage!.reduce((n, g) => n + g.size, 0);
        const waiting = game.awaiting(q).reduce((n, m) => n + m.size, 0);
        expect(sent).toBe(received + waiting + unrouted[p]!);
      }
    }
  });

  it('each game reads its counters and its garbage meter without a snapshot, equal to the snapshot’s at every tick', () => {
    const game = new VersusGame({ mode: 'battle', seed: 'meter', handling: H });
    const [a, b] = bots('meter', { ackDelay: 8 });
    let queued = 0;
    for (let t = 0; !game.outcome && t < 20_000; t++) {
      for (const [p, bot] of [[0, a], [1, b]] as const) {
        game.tick(p, bot.inputs(game, p), bot.acks(game, p));
        const g = game.game(p);
        const snap = g.snapshot();
        expect(g.stats()).toEqual({ score: snap.score, lines: snap.lines, level: snap.level, pieces: snap.pieces, tick: snap.tick });
        expect(g.garbageQueued).toBe(snap.garbageQueued);
        if (snap.garbageQueued > 0) queued++;
      }
    }
    expect(queued, 'the meter was read while garbage waited').toBeGreaterThan(0);
  });

  it('forces a late acknowledgement at the deadline: sentAt + 30 of the receiver’s ticks', () => {
    const game = new VersusGame({ mode: 'battle', seed: 'late', handling: H, rulesVersion: 4 }); // acknowledgements are rules 2 and 4's
    const [a, b] = bots('late', { ackDelay: 1000 });
    const routed: GarbageMessage[] = [];
    const applied: Array<{ id: number; at: number }> = [];
    for (let t = 0; !game.outcome && t < 20_000; t++) {
      for (const [p, bot] of [[0, a], [1, b]] as const) {
        const at = game.tickOf(p);
        const r = game.tick(p, bot.inputs(game, p), bot.acks(game, p));
        routed.push(...r.sent);
        applied.push(...r.applied.map((m) => ({ id: m.id, at })));
      }
    }
    expect(applied.length).toBeGreaterThan(0);
    for (const { id, at } of applied) expect(at).toBe(routed.find((m) => m.id === id)!.deadline);
    expect(routed.every((m) => m.deadline === m.sentAt + ACK_DEADLINE_TICKS)).toBe(true);
  });

  it('applies an acknowledged message at the tick of the acknowledgement and ignores unknown ones', () => {
    const game = new VersusGame({ mode: 'battle', seed: 'ack', handling: H, rulesVersion: 4 });
    const well = new VersusBot({ seed: 'ack/a' });
    let message = null;
    for (let t = 0; !message && t < 20_000 && !game.outcome; t++) {
      message = game.tick(0, well.inputs(game, 0)).sent[0] ?? null;
      game.tick(1, hardDrops(t % 40 < 2 ? t : 1));
    }
    expect(message).not.toBeNull();
    const at = game.tickOf(1);
    const r = game.tick(1, [], [message!.id, 12345]);
    expect(r.applied).toEqual([message]);
    expect(r.ignoredAcks).toEqual([12345]);
    expect(game.replay(1).garbage!.at(-1)).toEqual({ tick: at, size: message!.size });
    expect(game.tick(1, [], [message!.id]).ignoredAcks).toEqual([message!.id]);
  });

  it('decides by game ticks, not by which stream arrives first', () => {
    const game = new VersusGame({ mode: 'battle', seed: 'ticks', handling: H });
    let t = 0;
    for (; !game.game(0).over; t++) game.tick(0, hardDrops(t));
    const end = game.tickOf(0);
    expect(game.outcome).toBeNull(); // player 1 has not reached that tick yet
    for (let u = 0; u < end - 1; u++) game.tick(1);
    expect(game.outcome).toBeNull();
    game.tick(1);
    expect(game.outcome).toEqual({ winner: 1, reason: 'topOut', tick: end });
  });

  it('Race 30: reaching 30 lines wins by goal', () => {
    const match = new VersusMatch({ mode: 'race30', seed: 'race', handling: H, firstTo: 1 });
    playMatch(match, [new VersusBot({ seed: 'r/a' }), new VersusBot({ seed: 'r/b', pace: 30 })]);
    const outcome = match.games[0]!.outcome!;
    expect(outcome).toMatchObject({ winner: 0, reason: 'goal' });
    expect(match.games[0]!.game(0).snapshot().lines).toBeGreaterThanOrEqual(30);
    expect(match.winner).toBe(0);
  });

  it('leaving loses the set at once: the current game is forfeited and no more are played', () => {
    const match = new VersusMatch({ mode: 'battle', seed: 'leave', handling: H, firstTo: 3 });
    match.forfeit(1);
    expect(match.winner).toBe(0);
    expect(match.score).toEqual([1, 0]);
    expect(match.advance()).toBe(false);
    expect(match.games.map((g) => g.outcome!.reason)).toEqual(['forfeit']);
    expect(() => new VersusMatch({ mode: 'battle', seed: 'x', handling: H, firstTo: 0 })).toThrow(/firstTo/);
    expect(() => new VersusGame({ mode: 'sprint' as VersusMode, seed: 'x', handling: H })).toThrow(/not a versus mode/);
  });
});
