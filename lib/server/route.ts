import 'server-only';
import { unstable_rethrow } from 'next/navigation';
import { NextResponse } from 'next/server';
import { isDbUnavailable } from '@/lib/db/errors';
import { apiError } from '@/lib/server/http';

/** How long a client should wait before retrying while the database is away. */
export const DB_RETRY_AFTER_SECONDS = 5;

/** 503 with Retry-After; `extra` adds fields beside `error` (next-auth's client wants a `url`). */
export function databaseUnavailable(extra: Record<string, unknown> = {}) {
  return NextResponse.json(
    { ...extra, error: { code: 'database_unavailable', message: 'The database is unavailable for a moment. Nothing was lost: try again shortly.' } },
    { status: 503, headers: { 'retry-after': String(DB_RETRY_AFTER_SECONDS), 'cache-control': 'no-store' } },
  );
}

/**
 * Wraps a route handler so that nothing it throws reaches the client as a stack trace or an
 * empty 500: a database outage is a 503 with Retry-After (the client's offline queue keeps the
 * game and tries again), anything else a typed 500 with the details in the server log.
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
      console.error('[api] unexpected error', error);
      return apiError(500, 'internal_error', 'Something went wrong on our side. Please try again.');
    }
  };
}
