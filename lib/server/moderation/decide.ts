import 'server-only';
import type { ModerationActionInput } from '@/lib/validations/moderation';
import { getDb } from '@/lib/server/db';
import { approveGame, rejectGame } from '@/lib/server/games/review';
import { logAction, type Actor } from '@/lib/server/moderation/audit';
import { banPlayer, unbanPlayer } from '@/lib/server/moderation/bans';
import { closeReports } from '@/lib/server/moderation/reports';

export type DecideOutcome = { ok: true; action: string } | { ok: false; status: number; code: string; message: string };

/** One moderator decision from /moderation, each written to the audit log with the moderator's reason. */
export async function decide(options: { actor: Actor; input: ModerationActionInput }): Promise<DecideOutcome> {
  const { actor, input } = options;
  const needs = (what: string): DecideOutcome => ({ ok: false, status: 400, code: 'invalid_input', message: `Say which ${what}.` });
  switch (input.action) {
    case 'approve':
    case 'reject': {
      if (!input.gameId) return needs('game');
      const outcome = input.action === 'approve'
        ? await approveGame({ gameId: input.gameId, actor, reason: input.reason || 'timing reviewed' })
        : await rejectGame({ gameId: input.gameId, note: input.reason, actor });
      return outcome.ok ? { ok: true, action: input.action } : { ok: false, status: outcome.code === 'game_not_found' ? 404 : 409, code: outcome.code, message: outcome.message };
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
        const report = await tx.report.findFirst({ where: { id: input.reportId, status: 'open' }, select: { gameId: true, targetId: true } });
        if (!report) return false;
        await closeReports(tx, { reportId: input.reportId, status: 'dismissed', now });
        await logAction(tx, { actor, action: 'dismiss', gameId: report.gameId, targetId: report.targetId, reason: input.reason, now });
        return true;
      });
      return closed ? { ok: true, action: 'dismiss' } : { ok: false, status: 404, code: 'report_not_found', message: 'No open report with that id.' };
    }
  }
}
