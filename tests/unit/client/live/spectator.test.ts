import { describe, expect, it } from 'vitest';
import { TICK_MS } from '@/lib/client/clock';
import { SPECTATOR_DELAY_TICKS, SpectatorFeed } from '@/lib/client/live/spectator';
import { createGame, DEFAULT_HANDLING, pieceSequence, RULES_VERSION, type PieceType } from '@/lib/engine';
import { toWireEvent, type ServerMessage } from '@/lib/live/protocol';
import { playGame } from '@/tests/support/bot';

const SEED = 'spectator-feed';
const handling = { ...DEFAULT_HANDLING };
const stats = { score: 0, lines: 0, level: 1, pieces: 0, tick: 0 };

describe('SpectatorFeed', () => {
  it('draws the same field as the player, from the stream, behind it and never ahead', () => {
    // The player's game: a bot's Marathon, streamed in batches of 9 ticks.
    const { replay } = playGame({ mode: 'marathon', seed: SEED, handling, maxPieces: 60, pace: 20 });
    const next = pieceSequence(SEED, RULES_VERSION);
    const pieces: PieceType[] = Array.from({ length: 120 }, next);
    const player = createGame({ mode: 'marathon', seed: SEED, handling, nextCount: 5 });
    const end = replay.events.at(-1)!.tick + 1;
    expect(end, 'the bot must play well past the moment the spectator joins').toBeGreaterThan(600);
    const batch = (from: number, to: number) => replay.events.filter((e) => e.tick >= from && e.tick < to).map(toWireEvent);

    // Someone starts watching at tick 300: everything so far comes at once, with the pieces the
    // player had then (the current one, five previews and a spare).
    for (let t = 0; t < 300; t++) player.tick(replay.events.filter((e) => e.tick === t));
    const had = player.snapshot().pieces + 7;
    // What the server sends (a `watching` message) is what a feed starts from.
    const watching: Extract<ServerMessage, { t: 'watching' }> = {
      t: 'watching', gameId: 'abcdef0123', player: { name: 'p', guest: false }, mode: 'marathon', handling, nextCount: 5,
      pieces: pieces.slice(0, had), events: batch(0, 300), tick: 300, stats, spectators: 1, paused: false,
    };
    const feed = new SpectatorFeed(watching);
    let now = 0;
    feed.advance(now);
    expect(feed.tick).toBe(300 - SPECTATOR_DELAY_TICKS);
    for (let t = 300; t < end; t += 9) {
      feed.push({ from: had, pieces: pieces.slice(had), events: batch(t, t + 9), tick: Math.min(end, t + 9), paused: false });
      for (let f = 0; f < 9; f++) {
        now += TICK_MS;
        feed.advance(now);
        expect(feed.tick).toBeLessThanOrEqual(feed.latest);
      }
    }
    // The same field at the same tick as the player's game.
    const at = feed.tick;
    expect(at).toBeGreaterThan(end - 3 * SPECTATOR_DELAY_TICKS);
    for (let t = 300; t < at; t++) player.tick(replay.events.filter((e) => e.tick === t));
    const a = player.snapshot();
    const b = feed.snapshot();
    expect({ board: b.board, score: b.score, lines: b.lines, pieces: b.pieces }).toEqual({ board: a.board, score: a.score, lines: a.lines, pieces: a.pieces });
    expect(b.active).toEqual(a.active);
  });
});
