/**
 * Regenerates the golden replays in tests/fixtures/replays: `npx tsx scripts/make-golden.ts`.
 * Each fixture is a real game played by the test bot, stored with its binary encoding and the
 * result the engine produced, under the rules version it proves still verifies: rules 1
 * (GOLDEN_RULES) for most, rules 3 for the game that presses rowDown, rules 5 (the keyed generator,
 * decision 0020) for the games of new tickets. A changed fixture means old
 * replays would no longer verify, so a rule change is a new entry in RULES (constants.ts) and these
 * stay as they are (decision 0019). Running this must leave them byte for byte unchanged.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { encodeReplay, simulateReplay, type Replay } from '@/lib/engine';
import { playGame, type PlayOptions } from '@/tests/support/bot';
import { solvePerfectClears } from '@/tests/support/pc-solver';

const GOLDEN_RULES = 1;

interface Spec {
  name: string;
  description: string;
  /** The test bot's game; or `build`, a replay made another way (a search for a drill's end). */
  play?: PlayOptions;
  build?: (rulesVersion: number) => Replay;
  /** GOLDEN_RULES unless the game needs a later version's keys. */
  rules?: number;
  /** A game that never ends (Zen) is pinned at this tick instead of played for the default hour. */
  maxTicks?: number;
}

const specs: Spec[] = [
  { name: 'sprint-40l', description: 'Sprint to 40 lines at full speed, default handling', play: { mode: 'sprint', seed: 'golden-sprint' } },
  { name: 'sprint-3min', description: 'Sprint paced to ~3 minutes and ~100 pieces (the benchmark workload)', play: { mode: 'sprint', seed: 'golden-3min', pace: 105 } },
  { name: 'ultra-2min', description: 'Ultra: 7200 ticks, the clock ends it', play: { mode: 'ultra', seed: 'golden-ultra', pace: 24 } },
  { name: 'marathon-topout', description: 'Marathon: 120 pieces of play, then no input until gravity tops the stack out', play: { mode: 'marathon', seed: 'golden-marathon', maxPieces: 120, pace: 20 } },
  { name: 'marathon-levels', description: 'Marathon at full speed up the level curve until the stack tops out', play: { mode: 'marathon', seed: 'golden-levels', maxPieces: 260 } },
  { name: 'tspin-heavy', description: 'Ultra with the bot building T-spin double slots and spinning T pieces into them (13 full T-spins, 9 of them doubles, plus minis)', play: { mode: 'ultra', seed: 't4', spins: true, slots: true, pace: 20 } },
  { name: 'handling-arr0', description: 'ARR 0 (instant auto-shift), DAS 6, next queue of 3', play: { mode: 'sprint', seed: 'golden-arr0', handling: { das: 6, arr: 0, sdf: 20, dasCut: false }, nextCount: 3 } },
  { name: 'handling-sdf-instant', description: "SDF 'instant' with a soft-drop tap before every hard drop", play: { mode: 'sprint', seed: 'golden-sdf', handling: { das: 8, arr: 1, sdf: 'instant', dasCut: false }, softDrop: true } },
  { name: 'handling-dascut', description: 'DAS cut on, ARR 0, soft drop at SDF 6', play: { mode: 'ultra', seed: 'golden-dascut', handling: { das: 9, arr: 0, sdf: 6, dasCut: true }, softDrop: true, pace: 30 } },
  { name: 'rules3-row-down', description: 'Sprint under rules 3 (the solo rules of new games since decision 0019), rowDown tapped twice before every hard drop', rules: 3, play: { mode: 'sprint', seed: 'golden-row-down', rowDown: true } },
  { name: 'rules5-sprint-3min', description: 'Sprint under rules 5 (pieces from ChaCha20 keyed by the seed, decision 0020), paced to ~3 minutes, rowDown before every drop', rules: 5, play: { mode: 'sprint', seed: 'Wq3Yb0Lr9xvD2kTz8Hn5fA', pace: 105, rowDown: true } },
  { name: 'rules5-dig10', description: 'Dig 10 under rules 5 (holes from the keyed hole stream) at full speed, to the last garbage row', rules: 5, play: { mode: 'dig10', seed: 'golden-dig10' } },
  { name: 'rules5-dig18', description: 'Dig 18 under rules 5, paced, with holds and T-spins: rows rise as the garbage is cleared', rules: 5, play: { mode: 'dig18', seed: 'golden-dig18', pace: 40, spins: true } },
  { name: 'rules5-dig100', description: 'Dig 100 under rules 5 at full speed: ninety rows rise one by one', rules: 5, play: { mode: 'dig100', seed: 'golden-dig100' } },
  { name: 'rules5-marathon-spins', description: 'Marathon under rules 5 with T-spin slots, up the level curve until it tops out', rules: 5, play: { mode: 'marathon', seed: 'golden-rules5-marathon', spins: true, slots: true, maxPieces: 220 } },
  { name: 'rules5-tsd20', description: '20 TSD under rules 5: the bot clears only with T-spin doubles, counts one, then the stack blocks out', rules: 5, play: { mode: 'tsd20', seed: 'tsd-4', spins: true, slots: true, tsdOnly: true, pace: 20 } },
  { name: 'rules5-tsd20-wrong-clear', description: '20 TSD under rules 5: a plain single ends the game (wrongClear) before any T-spin double', rules: 5, play: { mode: 'tsd20', seed: 'golden-tsd20', pace: 20 } },
  { name: 'rules5-pc', description: 'Perfect Clears under rules 5: no perfect clear, a stack taller than four rows ends it (tooHigh)', rules: 5, play: { mode: 'pc', seed: 'golden-pc', pace: 20 } },
  { name: 'rules5-zen', description: 'Zen under rules 5: 300 pieces, then gravity alone to tick 6000; the bottom rows vanish instead of a top out, so it never ends', rules: 5, maxTicks: 6000, play: { mode: 'zen', seed: 'golden-zen', pace: 12, maxPieces: 300 } },
  { name: 'rules5-pc-clear', description: 'Perfect Clears under rules 5: a searched hard-drop path (holds included) to a four-line perfect clear, then pieces dropped where they spawn until one rests above the fourth row (tooHigh)', rules: 5, build: (rules) => solvePerfectClears('golden-pc-solved', 1, rules) },
  { name: 'rules5-survival', description: 'Survival under rules 5: the bot places a piece every 24 ticks, keeps up while rows rise every 3 s down to 0.8 s, and falls behind once they rise every 0.8 s', rules: 5, play: { mode: 'survival', seed: 'golden-survival', pace: 24 } },
];

const dir = new URL('../tests/fixtures/replays/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const spec of specs) {
  const rules = spec.rules ?? GOLDEN_RULES;
  const replay = spec.build ? spec.build(rules) : playGame({ ...spec.play!, rulesVersion: rules }).replay;
  const result = simulateReplay(replay, spec.maxTicks === undefined ? {} : { maxTicks: spec.maxTicks });
  const expected: Partial<typeof result> = { ...result };
  delete expected.unusedEvents;
  const fixture = { name: spec.name, description: spec.description, rulesVersion: rules, ...(spec.maxTicks === undefined ? {} : { maxTicks: spec.maxTicks }), expected, encoded: encodeReplay(replay), replay };
  // One event per line keeps the files readable and their diffs small.
  const text = JSON.stringify(fixture, null, 1).replace(
    /\{\n\s*"tick": (\d+),\n\s*"key": "(\w+)",\n\s*"down": (true|false)\n\s*\}/g,
    '{ "tick": $1, "key": "$2", "down": $3 }',
  );
  writeFileSync(new URL(`${spec.name}.json`, dir), `${text}\n`);
  console.log(`${spec.name}: ${result.reason} score ${result.score} lines ${result.lines} ticks ${result.ticks} pieces ${result.pieces} ${result.hash}`);
}
