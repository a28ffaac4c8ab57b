import { TICKS_PER_SECOND, type RoomEndReason, type RoomRules, type Targeting } from '@/lib/engine';

/** How each targeting rule reads to a watcher. A Record over the union: a new rule is a compile error here. */
export const TARGETING_TEXT: Readonly<Record<Targeting, string>> = {
  even: 'even (turns through the living)',
  random: 'random',
  kos: 'KOs (the closest to topping out)',
  attackers: 'attackers (whoever targets them)',
  manual: 'manual (each player picks)',
};

export const ROOM_END_TEXT: Readonly<Record<RoomEndReason, string>> = { lastStanding: 'last standing', goal: 'reached the goal', time: 'time' };

/** The rules a watcher needs to read the fields, in one line. */
export function rulesSummary(r: RoomRules): string {
  const parts = [
    `first to ${r.firstTo}`,
    `targeting ${TARGETING_TEXT[r.targeting]}`,
    `garbage after ${r.garbageDelay / TICKS_PER_SECOND} s, at most ${r.garbageCap} a lock`,
    `messiness ${r.messiness}%`,
    `attack ${r.attackPercent}%`,
    `preview ${r.preview}`,
    r.hold ? 'hold' : 'no hold',
  ];
  if (r.timeLimitTicks > 0) parts.push(`time limit ${Math.round(r.timeLimitTicks / TICKS_PER_SECOND)} s`);
  return parts.join(' · ');
}

/** A team's name: "Team A"…; a free-for-all's seats are their own team and go by the player's name. */
export const teamName = (team: number): string => `Team ${String.fromCharCode(65 + team)}`;

/**
 * The fields' grid for 2–16 seats: two a row on a phone (each still readable), then more as the
 * screen widens, six a row on a wide screen past eight seats.
 */
export function fieldGridClass(seats: number): string {
  if (seats <= 2) return 'grid-cols-2';
  if (seats <= 4) return 'grid-cols-2 lg:grid-cols-4';
  if (seats <= 8) return 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-4';
  return 'grid-cols-2 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6';
}
