/**
 * Writes the versus golden replays in tests/fixtures/versus-replays: `npm run golden:versus`.
 * Each fixture is one game played by two test bots through the referee (lib/engine/match.ts):
 * both players' versus replays with their garbage events, the outcome, and what each replay
 * re-simulates to. Each is played under the versus rules version it proves still verifies: rules
 * 2 (GOLDEN_RULES) for most, rules 4 for the battle whose bots press rowDown, rules 6 (keyed pieces
 * and holes, garbage that rises a fixed delay after it is sent, decision 0020) for two. A later versus
 * version is a new entry in RULES, these stay as they are (decision 0019). Running this must
 * leave them byte for byte unchanged.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_HANDLING, encodeReplay, simulateReplay, VersusGame, type VersusMode } from '@/lib/engine';
import { VersusBot, type VersusBotOptions } from '@/tests/support/versus-bot';

const GOLDEN_RULES = 2;

interface Spec {
  name: string;
  description: string;
  mode: VersusMode;
  seed: string;
  bots: [VersusBotOptions, VersusBotOptions];
  /** GOLDEN_RULES unless the game needs a later version's keys. */
  rules?: number;
}

const specs: Spec[] = [
  {
    name: 'battle-garbage',
    description: 'Battle between a tidy bot and a sloppier, slower one: garbage both ways, cancelling, the loser tops out',
    mode: 'battle', seed: 'golden-battle.0',
    bots: [{ seed: 'gb/a', mistakes: 0.05 }, { seed: 'gb/b', mistakes: 0.2, pace: 6 }],
  },
  {
    name: 'race30-goal',
    description: 'Race 30: the faster bot clears 30 lines first while the other takes its garbage',
    mode: 'race30', seed: 'golden-race.0',
    bots: [{ seed: 'gr/a' }, { seed: 'gr/b', pace: 20 }],
  },
  {
    name: 'battle-late-acks',
    description: 'Battle where both bots never acknowledge: every message joins the queue at its 30-tick deadline',
    mode: 'battle', seed: 'golden-late.0',
    bots: [{ seed: 'gl/a', mistakes: 0.02, ackDelay: 10_000 }, { seed: 'gl/b', mistakes: 0.1, pace: 3, ackDelay: 10_000 }],
  },
  {
    name: 'battle-rules4-row-down',
    description: 'Battle under versus rules 4 (new matches since decision 0019): both bots tap rowDown before their drops, garbage both ways',
    mode: 'battle', seed: 'golden-rules4.0', rules: 4,
    bots: [{ seed: 'g4/a', mistakes: 0.05, rowDown: 2 }, { seed: 'g4/b', mistakes: 0.2, pace: 6, rowDown: 1 }],
  },
  {
    name: 'battle-rules6',
    description: 'Battle under versus rules 6: garbage joins the queue when sent and rises 30 ticks later, attacks that cross cancel, rowDown taps',
    mode: 'battle', seed: 'golden-rules6.0', rules: 6,
    bots: [{ seed: 'g6/a', mistakes: 0.05, rowDown: 1 }, { seed: 'g6/b', mistakes: 0.15, pace: 4 }],
  },
  {
    name: 'race30-rules6',
    description: 'Race 30 under versus rules 6: the faster bot reaches 30 lines while the slower one digs through delayed garbage',
    mode: 'race30', seed: 'golden-race6.0', rules: 6,
    bots: [{ seed: 'gr6/a', mistakes: 0.02 }, { seed: 'gr6/b', pace: 12 }],
  },
];

const dir = new URL('../tests/fixtures/versus-replays/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const spec of specs) {
  const rules = spec.rules ?? GOLDEN_RULES;
  const game = new VersusGame({ mode: spec.mode, seed: spec.seed, handling: [DEFAULT_HANDLING, DEFAULT_HANDLING], rulesVersion: rules });
  const bots = spec.bots.map((o) => new VersusBot(o)) as [VersusBot, VersusBot];
  for (let t = 0; !game.outcome && t < 50_000; t++) for (const p of [0, 1] as const) game.tick(p, bots[p].inputs(game, p), bots[p].acks(game, p));
  if (!game.outcome) throw new Error(`${spec.name}: no outcome`);
  const players = ([0, 1] as const).map((p) => {
    const replay = game.replay(p);
    const maxTicks = game.tickOf(p);
    const { unusedEvents, ...expected } = simulateReplay(replay, { maxTicks });
    void unusedEvents;
    return { maxTicks, expected, encoded: encodeReplay(replay), replay };
  });
  const fixture = { name: spec.name, description: spec.description, rulesVersion: rules, outcome: game.outcome, players };
  const text = JSON.stringify(fixture, null, 1)
    .replace(/\{\n\s*"tick": (\d+),\n\s*"key": "(\w+)",\n\s*"down": (true|false)\n\s*\}/g, '{ "tick": $1, "key": "$2", "down": $3 }')
    .replace(/\{\n\s*"tick": (\d+),\n\s*"size": (\d+)\n\s*\}/g, '{ "tick": $1, "size": $2 }');
  writeFileSync(new URL(`${spec.name}.json`, dir), `${text}\n`);
  const [a, b] = players;
  console.log(`${spec.name}: ${JSON.stringify(game.outcome)} lines ${a!.expected.lines}/${b!.expected.lines} sent ${a!.expected.versus!.sent}/${b!.expected.versus!.sent}`);
}
