import { Core } from './core';
import { KeyStream } from './keystream';
import { DealtQueue, PieceQueue } from './queue';

/**
 * A deep copy of any engine state object: typed arrays and arrays of integers are copied, the piece queue is cloned the
 * same way, everything else is an integer, a boolean or immutable rules data shared as is. Copying
 * every own field (rather than a list of names) means a field added to Core later is cloned too;
 * the hash-equality property tests catch anything this would miss.
 */
function copyOf<T extends object>(src: T): T {
  const out = Object.create(Object.getPrototypeOf(src) as object) as Record<string, unknown>;
  for (const [key, value] of Object.entries(src)) {
    if (ArrayBuffer.isView(value)) out[key] = (value as Int32Array).slice();
    else if (Array.isArray(value)) out[key] = value.slice();
    else if (value instanceof PieceQueue || value instanceof DealtQueue || value instanceof KeyStream) out[key] = copyOf(value);
    else out[key] = value;
  }
  return out as T;
}

/** An independent copy of the whole state; pending events of the current tick are dropped. */
export function cloneCore(c: Core): Core {
  const copy = copyOf(c);
  copy.out = null;
  return copy;
}
