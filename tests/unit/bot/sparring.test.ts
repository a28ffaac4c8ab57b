import { describe, expect, it } from 'vitest';
import { SparringBot } from '@/lib/bot/sparring';
import { BOT_PPS, BOT_STYLES, type BotSpec } from '@/lib/bot/spec';
import { createGame, DEFAULT_HANDLING, TICKS_PER_SECOND, VERSUS_RULES_VERSION } from '@/lib/engine';
import { HumanInputGate } from '@/lib/input-limits';

/**
 * Plays `seconds` of a battle game alone (no garbage comes in) with the bot: pieces locked, lines,
 * garbage its clears are worth, whether it topped out, and the first input no person could make.
 */
function spar(spec: BotSpec, seconds: number, seed = 'spar') {
  const game = createGame({ mode: 'battle', seed, handling: DEFAULT_HANDLING, rulesVersion: VERSUS_RULES_VERSION });
  const bot = new SparringBot(spec);
  const gate = new HumanInputGate();
  let inhuman: string | null = null;
  let attack = 0;
  let drops = 0;
  for (let t = 0; t < seconds * TICKS_PER_SECOND && !game.over; t++) {
    const inputs = bot.inputs(game);
    for (const e of inputs) inhuman ??= gate.add(t, e.down);
    for (const e of inputs) if (e.key === 'hardDrop' && e.down) drops++;
    for (const e of game.tick(inputs)) if (e.type === 'lock') attack += e.attack;
  }
  const s = game.snapshot();
  return { pieces: s.pieces, lines: s.lines, attack, drops, over: s.over, inhuman };
}

describe('the sparring bot', () => {
  const speeds = Array.from({ length: BOT_PPS.max - BOT_PPS.min + 1 }, (_, i) => BOT_PPS.min + i);

  it.each(speeds)('keeps %i pieces a second, never faster, with inputs a person could make', (pps) => {
    const seconds = 60;
    const { pieces, drops, over, inhuman } = spar({ pps, style: 'tidy' }, seconds);
    expect(inhuman).toBeNull();
    // Each hard drop it presses places a piece: none is lost to a key it left down.
    expect(drops).toBeLessThanOrEqual(pieces + 1);
    expect(over).toBe(false);
    expect(pieces).toBeLessThanOrEqual(pps * seconds);
    expect(pieces).toBeGreaterThanOrEqual(Math.floor(pps * seconds * 0.95));
  });

  it.each(BOT_STYLES)('%s: clears lines and keeps playing for two minutes at full speed', (style) => {
    const { lines, over, inhuman } = spar({ pps: BOT_PPS.max, style }, 120, `style-${style}`);
    expect(inhuman).toBeNull();
    expect(over).toBe(false);
    expect(lines).toBeGreaterThan(200);
  });

  it.each(['a', 'b', 'c'])('the attacker sends more garbage than the tidy one from the same pieces (seed %s)', (seed) => {
    const tidy = spar({ pps: 3, style: 'tidy' }, 120, seed);
    const attacker = spar({ pps: 3, style: 'attacker' }, 120, seed);
    expect(attacker.over).toBe(false);
    expect(attacker.attack).toBeGreaterThan(tidy.attack * 1.3);
  });
});
