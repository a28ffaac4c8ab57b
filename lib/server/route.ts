import 'server-only';
import { unstable_rethrow } from 'next/navigation';
import { NextResponse } from 'next/server';
import { isDbUnavailable } from '@/lib/db/errors';
import { apiError } from '@/lib/server/http';
import { poolFailure, VERIFY_POOL } from '@/lib/server/verify-pool';

/** How long a client should wait before retrying while the database is away. */
export const DB_RETRY_AFTER_SECONDS = 5;

/** 503 with Retry-After; `extra` adds fields beside `error` (next-auth's client wants a `url`). */
export function databaseUnavailable(extra: Record<string, unknown> = {}) {
  return NextResponse.json(
    { ...extra, error: { code: 'database_unavailable', message: 'The database is unavailable for a moment. Nothing was lost: try again shortly.' } },
    { status: 503, headers: { 'retry-after': String(DB_RETRY_AFTER_SECONDS), 'cache-control': 'no-store' } },
  );
}

/** 503 with Retry-After while verification is at capacity or lost its worker: nothing was written, so a retry is safe. */
export function verificationBusy(message: string) {
  return NextResponse.json(
    { error: { code: 'busy', message } },
    { status: 503, headers: { 'retry-after': String(VERIFY_POOL.retryAfterSeconds), 'cache-control': 'no-store' } },
  );
}

/**
 * Wraps a route handler so that nothing it throws reaches the client as a stack trace or an
 * empty 500: a database outage is a 503 with Retry-After (the client's offline queue keeps the
 * game and tries again), and so is a full verification queue or a worker lost mid-job; anything
 * else a typed 500 with the details in the server log.
 */
export function route<Args extends unknown[]>(handler: (...args: Args) => Promise<Response>) {
  return async (...args: Args): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      unstable_rethrow(error);
      if (isDbUnavailable(error)) {
        console.error('[api] database unavailable:', error instanceof Error ? error.message.trim().split('\n').pop() : error);
        return databaseUnavailable();
      }
      const pool = poolFailure(error);
      if (pool === 'busy') return verificationBusy('The server is verifying many games right now. Your game is kept: it is sent again shortly.');
      if (pool === 'crashed') {
        console.error('[api] verification worker lost:', (error as Error).message);
        return verificationBusy('Verifying this game was interrupted on our side. Your game is kept: it is sent again shortly.');
      }
      console.error('[api] unexpected error', error);
      return apiError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
    }
  };
}
