import 'server-only';
import type { ModerationActionInput } from '@/lib/validations/moderation';
import { getDb } from '@/lib/server/db';
import { approveGame, rejectGame } from '@/lib/server/games/review';
import { logAction, type Actor } from '@/lib/server/moderation/audit';
import { banPlayer, unbanPlayer } from '@/lib/server/moderation/bans';
import { closeReports } from '@/lib/server/moderation/reports';
import { voidMatch } from '@/lib/server/versus/void';
import { decideFlag } from '@/lib/server/integrity/flags';

export type DecideOutcome = { ok: true; action: string } | { ok: false; status: number; code: string; message: string };

const OWN_REPORT: DecideOutcome = {
  ok: false, status: 403, code: 'own_report', message: 'Nobody decides on a report they filed or that is about them: another moderator must.',
};

/**
 * One moderator decision from /moderation, each written to the audit log with the moderator's
 * reason. A decision taken from a report (`reportId`) is refused when the moderator filed that
 * report or is its subject; their own games and their own ban are refused further down.
 */
export async function decide(options: { actor: Actor; input: ModerationActionInput }): Promise<DecideOutcome> {
  const { actor, input } = options;
  const needs = (what: string): DecideOutcome => ({ ok: false, status: 400, code: 'invalid_input', message: `Say which ${what}.` });
  if (input.reportId && (await involvedIn(actor, input.reportId))) return OWN_REPORT;
  switch (input.action) {
    case 'approve':
    case 'reject': {
      if (!input.gameId) return needs('game');
      const outcome = input.action === 'approve'
        ? await approveGame({ gameId: input.gameId, actor, reason: input.reason || 'timing reviewed' })
        : await rejectGame({ gameId: input.gameId, note: input.reason, actor });
      if (outcome.ok) return { ok: true, action: input.action };
      const status = outcome.code === 'game_not_found' ? 404 : outcome.code === 'own_game' ? 403 : 409;
      return { ok: false, status, code: outcome.code, message: outcome.message };
    }
    case 'ban':
    case 'unban': {
      if (!input.username) return needs('player');
      const outcome = await (input.action === 'ban' ? banPlayer : unbanPlayer)({ username: input.username, reason: input.reason, actor });
      return outcome.ok ? { ok: true, action: input.action } : outcome;
    }
    case 'dismiss': {
      if (!input.reportId) return needs('report');
      const db = await getDb();
      const now = new Date();
      const closed = await db.$transaction(async (tx) => {
        const report = await tx.report.findFirst({ where: { id: input.reportId, status: 'open' }, select: { gameId: true, targetId: true, reporterId: true } });
        if (!report) return 'missing';
        // Checked again here, in the transaction that closes it (the check above read it before).
        if (actor.id && (report.reporterId === actor.id || report.targetId === actor.id)) return 'own';
        await closeReports(tx, { reportId: input.reportId, status: 'dismissed', now });
        await logAction(tx, { actor, action: 'dismiss', gameId: report.gameId, targetId: report.targetId, reason: input.reason, now });
        return 'closed';
      });
      if (closed === 'own') return OWN_REPORT;
      return closed === 'closed' ? { ok: true, action: 'dismiss' } : { ok: false, status: 404, code: 'report_not_found', message: 'No open report with that id.' };
    }
    case 'void': {
      if (!input.matchId) return needs('match');
      const outcome = await voidMatch({ matchId: input.matchId, reason: input.reason, actor });
      return outcome.ok ? { ok: true, action: 'void' } : outcome;
    }
    case 'dismiss_flag':
    case 'confirm_flag': {
      if (!input.flagId) return needs('flag');
      const outcome = await decideFlag({ flagId: input.flagId, decision: input.action === 'dismiss_flag' ? 'dismissed' : 'confirmed', note: input.reason, actor });
      return outcome.ok ? { ok: true, action: input.action } : outcome;
    }
    default:
      return input.action satisfies never;
  }
}

/** Whether the actor filed the report or is the player it is about. */
async function involvedIn(actor: Actor, reportId: string): Promise<boolean> {
  if (!actor.id) return false;
  const db = await getDb();
  const report = await db.report.findUnique({ where: { id: reportId }, select: { reporterId: true, targetId: true } });
  return report !== null && (report.reporterId === actor.id || report.targetId === actor.id);
}
