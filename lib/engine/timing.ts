/** Lock delay in ticks (0.5 s) and the extended-placement limit on resets per lowest row. */
export const LOCK_DELAY = 30;
export const MAX_LOCK_RESETS = 15;
