import type { KeyStream } from './keystream';
import { utf8Encode } from './utf8';

/**
 * The randomizer of rules versions 1–4 (constants.ts RULES `randomizer: 'mulberry32'`):
 * 1. seed string → UTF-8 bytes → 32-bit FNV-1a hash = generator state.
 * 2. mulberry32 draws 32-bit unsigned integers from that state.
 * 3. Each bag starts as I O T S Z J L and is Fisher–Yates shuffled from the last index down, with
 *    j = draw % (i + 1) (the modulo bias is below 2^-29 and keeps everything integer).
 */
export function seedState(seed: string): number {
  let h = 0x811c9dc5;
  let ascii = true;
  for (let i = 0; i < seed.length && ascii; i++) ascii = seed.charCodeAt(i) < 0x80;
  if (ascii) {
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
    return h | 0;
  }
  const bytes = utf8Encode(seed) ?? new Uint8Array(0);
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h | 0;
}

/** One mulberry32 step; the state lives in the caller so it can be hashed and cloned. */
export function nextState(state: number): number {
  return (state + 0x6d2b79f5) | 0;
}

export function outputOf(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
  return (t ^ (t >>> 14)) >>> 0;
}

/** Shuffles a fresh bag into `bag` and returns the new generator state. */
export function shuffleBag(bag: Int8Array, state: number): number {
  for (let i = 0; i < 7; i++) bag[i] = i;
  for (let i = 6; i > 0; i--) {
    state = nextState(state);
    const j = outputOf(state) % (i + 1);
    const t = bag[i]!;
    bag[i] = bag[j]!;
    bag[j] = t;
  }
  return state;
}

/**
 * The same shuffle for rules versions 5 and 6, each j drawn from the game's keyed piece stream
 * (keystream.ts) instead of mulberry32.
 */
export function shuffleBagKeyed(bag: Int8Array, stream: KeyStream): void {
  for (let i = 0; i < 7; i++) bag[i] = i;
  for (let i = 6; i > 0; i--) {
    const j = stream.next() % (i + 1);
    const t = bag[i]!;
    bag[i] = bag[j]!;
    bag[j] = t;
  }
}
