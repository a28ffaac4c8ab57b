import type { Countdown } from '@/lib/validations/settings';

/**
 * Whether a new game counts down 3-2-1 before it starts, given how many games this page started
 * before it. The first one does: the player has just arrived and needs their hands on the keys. A
 * restart was asked for by the player that instant, so it plays at once (ranked fairness does not
 * need the countdown: the server's clock starts when it deals the first pieces, the browser's when
 * they arrive and are drawn; a live game that counts down says so in `start`, and both clocks wait
 * it out, lib/live/pace.ts). A resume after a pause always counts down (PlayController.resume).
 */
export function countsDown(setting: Countdown, gamesBefore: number): boolean {
  switch (setting) {
    case 'first':
      return gamesBefore === 0;
    case 'every':
      return true;
    default:
      return setting satisfies never;
  }
}
