import 'server-only';
import { createHmac } from 'node:crypto';
import { env } from '@/lib/server/env';

/**
 * A guest's short public tag ("4F2A" in "Guest 4F2A"): two guests in one match are told apart, and
 * one guest reads the same from match to match. Keyed, because the guest id is the cookie that owns
 * the guest's games: the tag must not lead back to it. Four hex digits: two guests of one match
 * share a tag once in 65,536 matches, and the page still says which one is "you".
 */
export function guestTag(guestId: string): string {
  return createHmac('sha256', `${env.AUTH_SECRET}:guest-tag`).update(guestId).digest('hex').slice(0, 4).toUpperCase();
}
