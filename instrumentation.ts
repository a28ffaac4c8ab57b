// Runs once when the server starts (next start, scripts/serve.mjs, next dev), never in the build.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startBackupService } = await import('@/lib/db/backup/service');
  await startBackupService();
  // The event-loop probe /api/health reports, measuring from the start.
  const { loopDelay } = await import('@/lib/server/loop-delay');
  loopDelay();
  // Verification workers load the engine once at start, not under the first submission.
  const { verifyPool } = await import('@/lib/server/verify-pool');
  verifyPool().warm();
  // The live channel's hub, before scripts/serve.mjs hands it the first /api/live upgrade.
  const { startLiveHub } = await import('@/lib/server/live/registry');
  await startLiveHub();
}
