/** End reasons as ids inside the state; END_NAMES gives the public names. */
export const END_NONE = 0;
export const END_BLOCK_OUT = 1;
export const END_LOCK_OUT = 2;
export const END_GOAL = 3;
export const END_TIME_UP = 4;
/** Versus: rising garbage pushed the stack past the top of the field. */
export const END_GARBAGE_OUT = 5;
/** Drills (modes.ts DrillRules): a line clear the mode does not count (20 TSD), a stack too tall to clear (Perfect Clears). */
export const END_WRONG_CLEAR = 6;
export const END_TOO_HIGH = 7;
export const END_NAMES = [null, 'blockOut', 'lockOut', 'goal', 'timeUp', 'garbageOut', 'wrongClear', 'tooHigh'] as const;
