import { z } from 'zod';

/**
 * The sparring bot's settings as data: what the versus page offers, what `spar` may ask for, and
 * what a stored match keeps of a bot seat. The search behind each style is in sparring.ts.
 * - pps: its pace in pieces a second (whole numbers; it keeps that average, catching up after a
 *   slow piece, and is never faster);
 * - style: `tidy` keeps the stack flat and clean (El-Tetris); `attacker` also keeps the right
 *   column open and fills it only to clear two lines or more, so it sends garbage sooner.
 */
export const BOT_PPS = { min: 1, max: 5 } as const;
export const BOT_STYLES = ['tidy', 'attacker'] as const;
export type BotStyle = (typeof BOT_STYLES)[number];

export const botSpecSchema = z.object({
  pps: z.number().int().min(BOT_PPS.min).max(BOT_PPS.max),
  style: z.enum(BOT_STYLES),
});
export type BotSpec = z.infer<typeof botSpecSchema>;

/** A stored seat's bot (its two columns), or null for a player's or guest's seat, or columns no version wrote. */
export function storedBot(seat: { botPps: number | null; botStyle: string | null }): BotSpec | null {
  const parsed = botSpecSchema.safeParse({ pps: seat.botPps, style: seat.botStyle });
  return parsed.success ? parsed.data : null;
}
