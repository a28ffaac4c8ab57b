import { z } from 'zod';
import { B2B_TABLES, checkRoomRules, COMBO_TABLES, MAX_SEATS, MAX_TEAMS, MIN_SEATS, ROOM_RULE_LIMITS, TARGETINGS, type RoomRules } from '@/lib/engine';

const int = (k: keyof typeof ROOM_RULE_LIMITS) => {
  const [lo, hi] = ROOM_RULE_LIMITS[k];
  return z.number({ error: `${k} must be an integer ${lo}–${hi}` }).int(`${k} must be an integer ${lo}–${hi}`).min(lo, `${k} must be at least ${lo}`).max(hi, `${k} must be at most ${hi}`);
};
const names = <T extends string>(k: string, list: readonly [T, ...T[]]) => z.enum(list, { error: `${k} must be one of ${list.join(', ')}` });

/**
 * A room's rules as the host sends them and as a stored match carries them: the engine's own
 * limits (ROOM_RULE_LIMITS), then the engine's whole check (checkRoomRules) for what a field alone
 * cannot say (teams against the seat count), so the two can never disagree.
 */
export function roomRulesSchema(seats: number) {
  return z
    .strictObject({
      targeting: names('targeting', TARGETINGS),
      teams: z.array(z.number().int().min(0).max(MAX_TEAMS - 1), { error: 'teams must be null or one team per seat' }).max(MAX_SEATS).nullable(),
      garbageDelay: int('garbageDelay'),
      garbageCap: int('garbageCap'),
      messiness: int('messiness'),
      attackPercent: int('attackPercent'),
      b2b: names('b2b', Object.keys(B2B_TABLES) as [keyof typeof B2B_TABLES]),
      combo: names('combo', Object.keys(COMBO_TABLES) as [keyof typeof COMBO_TABLES]),
      preview: int('preview'),
      hold: z.boolean({ error: 'hold must be true or false' }),
      startLevel: int('startLevel'),
      gravityLevel: int('gravityLevel'),
      firstTo: int('firstTo'),
      timeLimitTicks: int('timeLimitTicks'),
    })
    .superRefine((rules, ctx) => {
      const bad = checkRoomRules(rules, seats);
      if (bad) ctx.addIssue({ code: 'custom', message: bad });
    }) satisfies z.ZodType<RoomRules>;
}

export const roomSeatsSchema = z.number().int().min(MIN_SEATS, `a room has at least ${MIN_SEATS} seats`).max(MAX_SEATS, `a room has at most ${MAX_SEATS} seats`);
