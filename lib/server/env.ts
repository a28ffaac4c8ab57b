import 'server-only';
import { appEnv } from '@/lib/env.js';

/** The validated environment for server code (lib/env.js's appEnv: the one reader of process.env). */
export const env = appEnv();
