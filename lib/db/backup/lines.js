import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

/**
 * The lines of a gzipped stream; a corrupt or truncated file throws from the loop.
 * @param {NodeJS.ReadableStream} input
 */
export async function* gunzipLines(input) {
  const gunzip = createGunzip();
  pipeline(input, gunzip).catch(() => {}); // the same error surfaces from the iteration below
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of gunzip) {
    const parts = (rest + decoder.write(chunk)).split('\n');
    rest = parts.pop() ?? '';
    yield* parts;
  }
  rest += decoder.end();
  if (rest) yield rest;
}
