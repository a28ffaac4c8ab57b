import type { ApiError } from '@/lib/server/http';

/** A refusal as the browser reads it: the server's `{error: {code, message, field}}` envelope plus the status. */
export type ApiProblem = ApiError['error'] & { status: number };

/** The response's JSON, or null for an empty or unreadable body (a proxy's HTML error page). */
export async function bodyOf(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/**
 * The one reader of the error envelope. Anything else in the body (a proxy's page, a truncated
 * answer) still gives a code and a message the page can show.
 */
export function problemOf(status: number, body: unknown, fallback = `The server answered ${status}.`): ApiProblem {
  const err = (body as { error?: { code?: unknown; message?: unknown; field?: unknown } } | null)?.error;
  return {
    status,
    code: typeof err?.code === 'string' ? err.code : `http_${status}`,
    message: typeof err?.message === 'string' ? err.message : fallback,
    ...(typeof err?.field === 'string' ? { field: err.field } : {}),
  };
}

export async function readProblem(res: Response, fallback?: string): Promise<ApiProblem> {
  return problemOf(res.status, await bodyOf(res), fallback);
}
