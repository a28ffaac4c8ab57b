/**
 * Writes the room golden replays in tests/fixtures/room-replays: `npm run golden:rooms`.
 * Each fixture is one room game played by test bots through the N-seat referee
 * (lib/engine/referee.ts) under rules version 7: the room's rules, every seat's replay with its
 * garbage (and target changes), the outcome and the order seats went out, and what each replay
 * re-simulates to alone. A later rules change is a new rules version; running this must leave
 * these byte for byte unchanged.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_HANDLING, DEFAULT_ROOM_RULES, encodeReplay, RoomGame, simulateReplay, type RoomRules } from '@/lib/engine';
import { VersusBot, type VersusBotOptions } from '@/tests/support/versus-bot';

interface Spec {
  name: string;
  description: string;
  seed: string;
  rules: RoomRules;
  bots: VersusBotOptions[];
}

const specs: Spec[] = [
  {
    name: 'ffa4-rules7',
    description: 'A 4-seat free-for-all, even targeting, messy garbage (30%), to the last one standing',
    seed: 'golden-ffa4.0',
    rules: { ...DEFAULT_ROOM_RULES, messiness: 30 },
    bots: [{ seed: 'f4/a', mistakes: 0.08 }, { seed: 'f4/b', mistakes: 0.1, pace: 2 }, { seed: 'f4/c', mistakes: 0.12 }, { seed: 'f4/d', mistakes: 0.1, pace: 4 }],
  },
  {
    name: 'teams2v2-rules7',
    description: 'A 2v2 (seats 0 and 2 against 1 and 3), KOs targeting, cap 4 per placement, steep combos, no hold',
    seed: 'golden-2v2.0',
    rules: { ...DEFAULT_ROOM_RULES, teams: [0, 1, 0, 1], targeting: 'kos', garbageCap: 4, combo: 'steep', hold: false },
    bots: [{ seed: 't2/a', mistakes: 0.03 }, { seed: 't2/b', mistakes: 0.06, pace: 3 }, { seed: 't2/c', mistakes: 0.1 }, { seed: 't2/d', mistakes: 0.04, pace: 1 }],
  },
];

const dir = new URL('../tests/fixtures/room-replays/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const spec of specs) {
  const game = new RoomGame({ mode: 'battle', seed: spec.seed, rules: spec.rules, handling: spec.bots.map(() => DEFAULT_HANDLING) });
  const bots = spec.bots.map((o) => new VersusBot(o));
  for (let t = 0; !game.outcome && t < 50_000; t++) for (let s = 0; s < game.seats && !game.outcome; s++) if (!game.isOut(s)) game.play(s, bots[s]!.inputs(game, s));
  if (!game.outcome) throw new Error(`${spec.name}: no outcome`);
  const seats = bots.map((_, s) => {
    const replay = game.replay(s);
    const maxTicks = game.game(s).tickNo;
    const { unusedEvents, ...expected } = simulateReplay(replay, { maxTicks });
    void unusedEvents;
    return { maxTicks, expected, encoded: encodeReplay(replay), replay };
  });
  const fixture = { name: spec.name, description: spec.description, rulesVersion: 7, seed: spec.seed, rules: spec.rules, outcome: game.outcome, placements: game.placements(), seats };
  const text = JSON.stringify(fixture, null, 1)
    .replace(/\{\n\s*"tick": (\d+),\n\s*"key": "(\w+)",\n\s*"down": (true|false)\n\s*\}/g, '{ "tick": $1, "key": "$2", "down": $3 }')
    .replace(/\{\n\s*"tick": (\d+),\n\s*"size": (\d+)\n\s*\}/g, '{ "tick": $1, "size": $2 }');
  writeFileSync(new URL(`${spec.name}.json`, dir), `${text}\n`);
  console.log(`${spec.name}: ${JSON.stringify(game.outcome)} placements ${game.placements().join(',')} sent ${seats.map((p) => p.expected.versus!.sent).join('/')} ticks ${seats.map((p) => p.maxTicks).join('/')}`);
}
