import { TICKS_PER_SECOND } from '@/lib/engine';

/**
 * Humanly possible input, shared by the server (which refuses replays beyond it) and the
 * browser (which must never record a replay beyond it, even after a stalled frame). The fastest
 * players sustain ~15 key presses a second; chords put at most a few edges on one tick (release
 * one direction, press the other, rotate, hard drop: four). These bounds are well above both.
 */
export const HUMAN_INPUT = {
  maxEventsPerTick: 6,
  windowTicks: TICKS_PER_SECOND,
  maxKeyDownsPerWindow: 40,
} as const;

/**
 * HUMAN_INPUT checked as inputs arrive, one at a time, in tick order: what a live host applies to
 * each batch, and what a whole replay's check (lib/server/games/verify.ts) runs over. Holds the
 * ticks of the last maxKeyDownsPerWindow key-downs, so it costs the same whatever the game's length.
 */
export class HumanInputGate {
  private tick = -1;
  private sameTick = 0;
  private readonly downs = new Int32Array(HUMAN_INPUT.maxKeyDownsPerWindow);
  private next = 0;
  private seen = 0;

  /** Null when a person could have made this input after the ones before it; otherwise why not. */
  add(tick: number, down: boolean): string | null {
    this.sameTick = tick === this.tick ? this.sameTick + 1 : 1;
    this.tick = tick;
    if (this.sameTick > HUMAN_INPUT.maxEventsPerTick) {
      return `${this.sameTick} key events at tick ${tick}; at most ${HUMAN_INPUT.maxEventsPerTick} per tick are humanly possible.`;
    }
    if (!down) return null;
    // The key-down maxKeyDownsPerWindow before this one: within the window, this one is one too many.
    const oldest = this.downs[this.next]!;
    if (this.seen >= HUMAN_INPUT.maxKeyDownsPerWindow && oldest > tick - HUMAN_INPUT.windowTicks) {
      return `${HUMAN_INPUT.maxKeyDownsPerWindow + 1} key presses within one second around tick ${tick}; at most ${HUMAN_INPUT.maxKeyDownsPerWindow} are humanly possible.`;
    }
    this.downs[this.next] = tick;
    this.next = (this.next + 1) % HUMAN_INPUT.maxKeyDownsPerWindow;
    this.seen++;
    return null;
  }
}
