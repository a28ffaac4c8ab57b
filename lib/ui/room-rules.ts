import { TICKS_PER_SECOND, type RoomRules, type Targeting } from '@/lib/engine';

/** What each targeting rule means, as players read it (the lobby, the form, the play view). */
export const TARGETING_TEXT: Readonly<Record<Targeting, { label: string; blurb: string }>> = {
  even: { label: 'Even', blurb: 'each attack goes to the next opponent in turn' },
  random: { label: 'Random', blurb: 'each attack goes to an opponent drawn at random' },
  kos: { label: 'KOs', blurb: 'attacks go to whoever is closest to topping out' },
  attackers: { label: 'Attackers', blurb: 'attacks go back to whoever aims at you' },
  manual: { label: 'Manual', blurb: 'you choose: press T or tap a field' },
};

const seconds = (ticks: number) => `${Math.round((ticks / TICKS_PER_SECOND) * 10) / 10} s`;

/** The rules as label/value lines, in one order: what everyone sees before they ready up. */
export function ruleLines(r: RoomRules, seats: number): { key: keyof RoomRules; label: string; value: string }[] {
  const teams = r.teams ? `${new Set(r.teams).size} teams` : 'free-for-all';
  return [
    { key: 'firstTo', label: 'First to', value: `${r.firstTo} ${r.firstTo === 1 ? 'game' : 'games'}` },
    { key: 'timeLimitTicks', label: 'Time limit', value: r.timeLimitTicks === 0 ? 'none' : seconds(r.timeLimitTicks) },
    { key: 'targeting', label: 'Targeting', value: TARGETING_TEXT[r.targeting].label },
    { key: 'teams', label: 'Teams', value: `${teams} (${seats} seats)` },
    { key: 'garbageDelay', label: 'Garbage delay', value: seconds(r.garbageDelay) },
    { key: 'garbageCap', label: 'Garbage cap', value: `${r.garbageCap} rows a lock` },
    { key: 'attackPercent', label: 'Attack', value: `× ${r.attackPercent}%` },
    { key: 'b2b', label: 'Back-to-back', value: r.b2b },
    { key: 'combo', label: 'Combo table', value: r.combo },
    { key: 'messiness', label: 'Messiness', value: `${r.messiness}%` },
    { key: 'preview', label: 'Preview', value: `${r.preview} pieces` },
    { key: 'hold', label: 'Hold', value: r.hold ? 'on' : 'off' },
    { key: 'startLevel', label: 'Starting level', value: String(r.startLevel) },
    { key: 'gravityLevel', label: 'Gravity', value: r.gravityLevel === 0 ? 'follows the level' : `level ${r.gravityLevel}` },
  ];
}

/** Teams for a room of `seats` split into `count` teams, seat by seat in turn (null: free-for-all). */
export function splitTeams(seats: number, count: number): number[] | null {
  return count < 2 ? null : Array.from({ length: seats }, (_, s) => s % count);
}
