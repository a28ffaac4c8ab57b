import 'server-only';
import { NextResponse } from 'next/server';

/** Every API error has this shape, so the UI and scripts can rely on `code`. */
export type ApiError = { error: { code: string; message: string; field?: string } };

export function apiError(status: number, code: string, message: string, field?: string) {
  return NextResponse.json<ApiError>({ error: { code, message, ...(field ? { field } : {}) } }, { status });
}

/** Any zod error (classic or zod/mini): the first issue, naming its field. */
export function validationError(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }) {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  return apiError(400, 'invalid_input', issue?.message ?? 'Invalid input', field);
}

const DEFAULT_BODY_LIMIT = 64 * 1024;

/** Reads a JSON body, refusing oversized or malformed ones before parsing more than the cap. */
export async function readJson(
  request: Request,
  limit = DEFAULT_BODY_LIMIT,
): Promise<{ ok: true; value: unknown } | { ok: false; response: NextResponse }> {
  // Only application/json: a form or text/plain body is what another site's page can send
  // without a CORS preflight, so no JSON route reads one.
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    return { ok: false, response: apiError(415, 'unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.') };
  }
  const text = await readCapped(request, limit);
  if (text === null) return { ok: false, response: apiError(413, 'payload_too_large', `Body exceeds ${limit} bytes`) };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, response: apiError(400, 'invalid_json', 'Body is not valid JSON') };
  }
}

/**
 * The body as text, or null when it declares or grows past the limit. A declared length over the
 * limit is answered at once, without waiting for bytes that may never come; one that is absent
 * (chunked) or understated is caught by counting what arrives.
 */
export async function readCapped(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? '0') > limit) return null;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
