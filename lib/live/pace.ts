/**
 * How far a ranked live solo game may trail the wall clock before it goes on unranked
 * (`too_slow`): the one home of the figure, read by the server's pace check
 * (lib/server/live/pacing.ts) and by the play page's clock, which after a stalled frame catches up
 * at least this much at once. A page that dropped the backlog of every stall (a phone's garbage
 * collection, a loaded machine) fell a little further behind at each one, for good, and a game
 * played honestly to its end was held as too slow.
 */
export const SOLO_MAX_LAG_MS = 3_000;

/**
 * How long the play page counts down (3, 2, 1) before a game's first tick, when it does: its first
 * game, a resume, and every game for a player who asks (lib/client/countdown.ts). A page that will
 * count down says so in `start`, and the server's clock for that game starts this long after its
 * deal, as the browser's does: charged to the pace, the countdown left a first game 1.2 s of the
 * 3 s a slow network may take. A page that says so and plays at once runs ahead of that clock.
 */
export const START_COUNTDOWN_MS = 1_800;
