import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/server/env';

/**
 * The token that takes a live game up again after a dropped connection. Derived from the game id
 * and the site's secret rather than kept in memory, so a restarted server (or, behind a load
 * balancer, another instance with the same secret) accepts the token the first one gave.
 */
export function resumeTokenOf(gameId: string): string {
  return createHmac('sha256', `${env.AUTH_SECRET}:live-resume`).update(gameId).digest('base64url').slice(0, 32);
}

/** Whether `token` is the game's resume token (compared in constant time). */
export function resumeTokenMatches(gameId: string, token: string): boolean {
  const expected = Buffer.from(resumeTokenOf(gameId));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
