import { bodyOf, problemOf, type ApiProblem } from '@/lib/client/errors';

/** A JSON request from one of our forms: the answer's body, or the server's typed refusal. */
export async function sendJson<T>(path: string, method: 'POST' | 'DELETE', body?: unknown): Promise<{ ok: true; value: T } | { ok: false; problem: ApiProblem }> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, problem: { status: 0, code: 'offline', message: 'Could not reach the server. Check your connection and try again.' } };
  }
  const value = await bodyOf(res);
  if (!res.ok) return { ok: false, problem: problemOf(res.status, value) };
  return { ok: true, value: value as T };
}
