import { request as httpRequest } from 'node:http';

export type RawAnswer = { status: number; body: string };

/**
 * A request sent as a client that does not play by the rules would send it: the body in
 * chunks with no Content-Length, or a Content-Length that is not the length of what is sent.
 * Answers as soon as the server does, even while it has not read (or been sent) the whole body.
 */
export function rawRequest(
  baseURL: string,
  options: { method: string; path: string; headers?: Record<string, string>; chunks: string[]; declaredLength?: number; keepOpen?: boolean },
): Promise<RawAnswer> {
  const headers: Record<string, string | number> = { ...options.headers };
  if (options.declaredLength !== undefined) headers['content-length'] = options.declaredLength;
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(options.path, baseURL), { method: options.method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        req.destroy();
      });
    });
    req.on('error', reject);
    // Chunked unless a length was declared.
    for (const chunk of options.chunks) req.write(chunk);
    if (!options.keepOpen) req.end();
  });
}
