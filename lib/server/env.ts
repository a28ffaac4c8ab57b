import 'server-only';
import { parseEnv } from '@/lib/env.js';

/** The validated environment; the only place server code reads process.env. */
export const env = parseEnv(process.env, {
  // `next build` imports server modules with NODE_ENV=production but serves nothing;
  // next.config.js already demands the secret when the production server starts.
  requireSecret: process.env.NEXT_PHASE !== 'phase-production-build',
});
