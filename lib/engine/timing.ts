/** Lock delay in ticks (0.5 s) and the extended-placement limit on resets per lowest row. */
export const LOCK_DELAY = 30;
export const MAX_LOCK_RESETS = 15;
/**
 * How a resting piece locks. 'delay': the lock delay and resets above, every rules version and every
 * replay. 'hardDrop': only a hard drop locks it (a practice drill waits for the player). Set by a
 * game's config alone, never by a replay, so no rules version or golden depends on it.
 */
export const LOCK_RULES = ['delay', 'hardDrop'] as const;
