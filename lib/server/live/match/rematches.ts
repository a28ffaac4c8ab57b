import 'server-only';
export const REMATCH = { windowMs: 30_000 } as const;
