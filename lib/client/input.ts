import type { InputEvent, Key } from '@/lib/engine/types';

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

  /** The edges for `tick` (and any stamped earlier), in order; undefined when none. */
  take(tick: number): InputEvent[] | undefined {
    let out: InputEvent[] | undefined;
    while (this.head < this.items.length && this.items[this.head]!.tick <= tick) {
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
