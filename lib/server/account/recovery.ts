import 'server-only';
import { usernameKey } from '@/lib/validations/auth';
import { getDb } from '@/lib/server/db';
import { digestSecret, newRecoveryCode, normalRecoveryCode } from '@/lib/server/account/tokens';
import { setPassword, type PasswordOutcome } from '@/lib/server/account/password';
import { forgetSessionState } from '@/lib/server/account/sessions';

export const RECOVERY_CODE_COUNT = 10;

/** New recovery codes for the player, replacing all earlier ones. Shown once: only hashes are kept. */
export async function regenerateRecoveryCodes(options: { userId: string }): Promise<string[]> {
  const db = await getDb();
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.$transaction([
    db.recoveryCode.deleteMany({ where: { userId: options.userId } }),
    db.recoveryCode.createMany({ data: codes.map((code) => ({ userId: options.userId, codeHash: digestSecret(code) })) }),
  ]);
  return codes;
}

export async function countRecoveryCodes(options: { userId: string }): Promise<number> {
  const db = await getDb();
  return db.recoveryCode.count({ where: { userId: options.userId, usedAt: null } });
}

export type RecoverOutcome = PasswordOutcome | { ok: false; code: 'recovery_failed'; message: string };

/**
 * Spends one unused recovery code of the named account and sets a new password (signing out
 * every session). A wrong name and a wrong code get the same answer. The code is spent by a
 * conditional update, so two requests with one code cannot both succeed; a refused password
 * rolls the whole step back and leaves the code unspent.
 */
export async function recoverWithCode(options: { username: string; code: string; password: string; now?: Date }): Promise<RecoverOutcome> {
  const now = options.now ?? new Date();
  const db = await getDb();
  const refused = { ok: false, code: 'recovery_failed', message: 'That username and recovery code do not match an unused code.' } as const;
  const user = await db.user.findUnique({ where: { usernameKey: usernameKey(options.username) }, select: { id: true, username: true } });
  if (!user) return refused;
  const codeHash = digestSecret(normalRecoveryCode(options.code));
  try {
    const outcome = await db.$transaction(async (tx) => {
      const { count } = await tx.recoveryCode.updateMany({ where: { userId: user.id, codeHash, usedAt: null }, data: { usedAt: now } });
      if (count !== 1) return refused;
      const outcome = await setPassword(tx, { userId: user.id, username: user.username, password: options.password });
      if (!outcome.ok) throw new Rollback(outcome);
      return { ...outcome, userId: user.id };
    });
    if (!outcome.ok) return outcome;
    // Again after the commit: a socket checked while the transaction was open read the old version.
    forgetSessionState(outcome.userId);
    return { ok: true, sessionVersion: outcome.sessionVersion };
  } catch (error) {
    if (error instanceof Rollback) return error.outcome;
    throw error;
  }
}

/** Thrown inside a transaction to undo it and hand its refusal to the caller. */
export class Rollback extends Error {
  constructor(readonly outcome: RecoverOutcome) {
    super(outcome.ok ? 'rollback' : outcome.code);
  }
}
