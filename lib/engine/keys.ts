/** Key ids inside the engine: the index of each key in KEYS (constants.ts), also its id in the binary replay. */
export const K_LEFT = 0;
export const K_RIGHT = 1;
export const K_SOFT = 2;
export const K_HARD = 3;
export const K_CW = 4;
export const K_CCW = 5;
export const K_180 = 6;
export const K_HOLD = 7;
export const K_ROW_DOWN = 8;
