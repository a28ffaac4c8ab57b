import type { InputEvent, Key } from '@/lib/engine';
import { HUMAN_INPUT } from '@/lib/input-limits';

interface Stamped {
  tick: number;
  key: Key;
  down: boolean;
}

/**
 * Engine key edges waiting for their tick. Stamps never go backwards, so the queue stays sorted and
 * the engine sees edges in the order the player made them.
 */
export class InputQueue {
  private items: Stamped[] = [];
  private head = 0;
  private last = 0;

  push(tick: number, key: Key, down: boolean): void {
    const t = Math.max(tick, this.last);
    this.last = t;
    this.items.push({ tick: t, key, down });
  }

  /**
   * The edges for `tick` (and any stamped earlier), in order; undefined when none. At most
   * HUMAN_INPUT.maxEventsPerTick per tick: a burst (keys pressed during a stalled frame, or
   * released by a pause) spills into the next ticks rather than making a replay the server
   * would refuse as inhuman.
   */
  take(tick: number): InputEvent[] | undefined {
    let out: InputEvent[] | undefined;
    while (
      this.head < this.items.length &&
      this.items[this.head]!.tick <= tick &&
      (out?.length ?? 0) < HUMAN_INPUT.maxEventsPerTick
    ) {
      const { key, down } = this.items[this.head++]!;
      (out ??= []).push({ key, down });
    }
    if (this.head === this.items.length && this.head > 0) {
      this.items = [];
      this.head = 0;
    }
    return out;
  }

  get size(): number {
    return this.items.length - this.head;
  }

  /**
   * The clock dropped `ticks` of backlog after a stall: edges stamped in the dropped time move
   * back with it (never before `floor`, the next tick to run), so later keys are not delayed.
   */
  rebase(ticks: number, floor: number): void {
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i]!;
      item.tick = Math.max(floor, item.tick - ticks);
    }
    this.last = Math.max(floor, this.last - ticks);
  }
}

/**
 * Which engine keys are down, and through which physical keys: with two keys bound to one action,
 * the action is released only when the last of them goes up.
 */
export class HeldKeys {
  private byKey = new Map<Key, Set<string>>();

  /** Returns true when this press changes the engine key's state (the first code down). */
  press(key: Key, code: string): boolean {
    let codes = this.byKey.get(key);
    if (!codes) this.byKey.set(key, (codes = new Set()));
    const first = codes.size === 0;
    codes.add(code);
    return first;
  }

  /** Returns true when this release lets go of the engine key (the last code up). */
  release(key: Key, code: string): boolean {
    const codes = this.byKey.get(key);
    if (!codes || !codes.delete(code)) return false;
    return codes.size === 0;
  }

  /** Forgets everything; returns the engine keys that were down. */
  releaseAll(): Key[] {
    const down = [...this.byKey].filter(([, codes]) => codes.size > 0).map(([key]) => key);
    this.byKey.clear();
    return down;
  }
}
