import { z } from 'zod';

/** Why a player reports a game or a player; the form's choices and the server's check. */
export const REPORT_REASONS = {
  cheating: 'Cheating (a bot, a script or an edited replay)',
  inhuman_timing: 'Inhuman input timing',
  offensive_name: 'Offensive username',
  other: 'Something else',
} as const;
export type ReportReason = keyof typeof REPORT_REASONS;

// Forms send an absent field as ''.
const optional = (max: number) => z.string().trim().max(max).optional().transform((v) => v || undefined);

export const reportSchema = z
  .object({
    gameId: optional(40),
    username: optional(20),
    reason: z.enum(Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]], { error: 'Choose a reason' }),
    note: z.string().trim().max(500, 'Keep the note under 500 characters').optional().transform((v) => v || undefined),
  })
  .refine((r) => Boolean(r.gameId) !== Boolean(r.username), { message: 'Report either a game or a player', path: ['gameId'] });
/** What the data layer takes: the parsed payload (absent fields may be left out). */
export type ReportInput = { gameId?: string; username?: string; reason: ReportReason; note?: string };

/** dismiss_flag / confirm_flag answer a flag from the integrity review across games (flagId). */
export const MODERATION_ACTIONS = ['approve', 'reject', 'ban', 'unban', 'dismiss', 'void', 'dismiss_flag', 'confirm_flag'] as const;

/** A moderator's decision; a reason is required for everything but an approval. */
export const moderationActionSchema = z
  .object({
    action: z.enum(MODERATION_ACTIONS),
    gameId: optional(40),
    username: optional(20),
    reportId: optional(40),
    /** A versus match (void). */
    matchId: optional(40),
    /** An integrity flag (dismiss_flag, confirm_flag). */
    flagId: optional(40),
    reason: z.string().trim().max(500, 'Keep the reason under 500 characters').default(''),
  })
  .refine((a) => a.action === 'approve' || a.reason.length > 0, { message: 'Say why: the reason is logged, and a ban shows it to the player', path: ['reason'] });
export type ModerationActionInput = z.infer<typeof moderationActionSchema>;

/** Roles in order of power: moderators work the queue; admins also give and take roles (lib/server/moderation/roles.ts). */
export const ROLES = ['player', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** An admin's role change on /moderation; the audit log records it as grant or revoke. */
export const roleChangeSchema = z.object({
  username: z.string().trim().min(1, 'Say which player').max(20, 'No such player'),
  role: z.enum(ROLES, { error: 'Choose a role' }),
});
export type RoleChangeInput = z.infer<typeof roleChangeSchema>;
