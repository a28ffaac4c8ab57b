import { describe, expect, it } from 'vitest';
import { encodeReplay, VersusMatch, type Mode } from '@/lib/engine';
import { replayFeatures, type FeatureRow } from '@/lib/server/integrity/features';
import { judgeProfile, outOfRange } from '@/lib/server/integrity/judge';
import type { ModeKind } from '@/lib/server/integrity/rules';
import { recordOf } from '@/lib/server/versus/verify';
import { HANDLING } from '@/tests/engine/helpers';
import { playGame } from '@/tests/support/bot';
import { CASUAL_HUMAN, FAST_HUMAN, type HumanTiming } from '@/tests/support/human';
import { playMatch, VersusBot, type VersusBotOptions } from '@/tests/support/versus-bot';

/**
 * Recorded streams of the project's own bots, at superhuman settings and with human-like timing
 * (tests/support/human.ts), through the same features and judge as stored games. The goal: every
 * superhuman game out of the human range and its player flagged; no human-like game out of it.
 */
const MODERATE: HumanTiming = { hold: [2, 5], gap: [1, 3], think: [3, 15] };
/** Jittered like a person, but typing 24 keys a second for a whole game. */
const JITTERED_MACHINE: HumanTiming = { hold: [1, 2], gap: [0, 0], think: [0, 0] };

type Stream = { kind: ModeKind; row: FeatureRow };

function solo(human: HumanTiming | undefined, label: string): Stream[] {
  const modes: Mode[] = ['sprint', 'sprint', 'sprint', 'marathon'];
  return modes.map((mode, i) => {
    const { replay } = playGame({ mode, seed: `${label}-${i}`, human });
    return { kind: 'solo', row: replayFeatures(encodeReplay(replay), null)! };
  });
}

function versus(options: Omit<VersusBotOptions, 'seed'>, label: string): Stream[] {
  return [1, 2].flatMap((m) => {
    const seed = `${label}-${m}`;
    const match = new VersusMatch({ mode: 'battle', seed, handling: [HANDLING, HANDLING] });
    playMatch(match, [new VersusBot({ ...options, seed: `${seed}/a`, mistakes: 0.1 }), new VersusBot({ ...options, seed: `${seed}/b`, mistakes: 0.2 })]);
    return recordOf(match, seed, 'battle').games.flatMap((g) => g.replays.map((r) => ({ kind: 'versus' as const, row: replayFeatures(r, g.endTick)! })));
  });
}

const SUPERHUMAN = {
  'solo bot, 1-tick taps': () => solo(undefined, 'robot'),
  'solo bot, jittered at 24 keys/s': () => solo(JITTERED_MACHINE, 'jittered'),
  'versus bot, 1-tick taps': () => versus({}, 'v-robot'),
  'versus bot, 1-tick taps, paced': () => versus({ pace: 4 }, 'v-paced'),
};
const HUMAN_LIKE = {
  'solo, fast human': () => solo(FAST_HUMAN, 'fast'),
  'solo, moderate human': () => solo(MODERATE, 'moderate'),
  'solo, casual human': () => solo(CASUAL_HUMAN, 'casual'),
  'versus, fast human': () => versus({ human: FAST_HUMAN }, 'v-fast'),
  'versus, moderate human': () => versus({ human: MODERATE }, 'v-moderate'),
  'versus, casual human': () => versus({ human: CASUAL_HUMAN }, 'v-casual'),
};

/** Games out of the human range, and whether one player with this run of games is flagged. */
function caught(streams: Stream[]) {
  const out = streams.filter((s) => outOfRange(s.row, s.kind).length > 0).length;
  const flagged = judgeProfile(streams.map((s, i) => ({ ref: { kind: 'solo', gameId: String(i) }, row: s.row })), streams[0]!.kind).length > 0;
  return { games: streams.length, out, flagged };
}

describe('recorded bot and human-like streams', () => {
  it('every superhuman game is out of the human range and its player flagged; no human-like game is', () => {
    const lines: string[] = [];
    const tally = (set: Record<string, () => Stream[]>) => Object.entries(set).map(([name, make]) => {
      const c = caught(make());
      lines.push(`${name.padEnd(34)} ${c.out}/${c.games} games out of range, player ${c.flagged ? 'flagged' : 'not flagged'}`);
      return { name, ...c };
    });
    const bots = tally(SUPERHUMAN);
    const humans = tally(HUMAN_LIKE);
    const sum = (xs: typeof bots, key: 'games' | 'out') => xs.reduce((n, x) => n + x[key], 0);
    console.log(`integrity catch counts:\n${lines.join('\n')}\n` +
      `superhuman: ${sum(bots, 'out')}/${sum(bots, 'games')} games caught; human-like: ${sum(humans, 'out')}/${sum(humans, 'games')} games caught`);
    for (const b of bots) expect(b, b.name).toMatchObject({ out: b.games, flagged: true });
    for (const h of humans) expect(h, h.name).toMatchObject({ out: 0, flagged: false });
  }, 120_000);
});
