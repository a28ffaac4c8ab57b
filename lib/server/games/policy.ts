import 'server-only';
import { TICKS_PER_SECOND } from '@/lib/engine';

// The numbers behind verification and retention, in one place.

/**
 * A ticket (seed) expires 3 hours after issue. The longest plausible game is a slow
 * 150-line Marathon (~40–60 min) plus pauses; the engine's own cap is one hour of ticks.
 */
export const TICKET_TTL_MS = 3 * 60 * 60 * 1000;

/**
 * An expired ticket with no game is deleted only this long after its expiry: a submission read
 * it before the expiry (and is judged as of then) may still be uploading its body (a minute at
 * most, scripts/serve.mjs) or waiting for a verification worker, and must find it to store.
 */
export const EXPIRED_TICKET_GRACE_MS = 10 * 60 * 1000;

/** Re-simulation stops here: no legitimate game is longer than an hour of play. */
export const MAX_GAME_TICKS = 60 * 60 * TICKS_PER_SECOND;

/** Clock differences and the countdown before tick 0 are covered by this allowance. */
export const ELAPSED_SLACK_MS = 2_000;

/** Unclaimed guest games are kept this long for the guest to sign in and claim them. */
export const GUEST_GAME_TTL_MS = 24 * 60 * 60 * 1000;

export { HUMAN_INPUT } from '@/lib/input-limits';
