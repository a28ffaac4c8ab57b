import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientMessageSchema, LIVE_ERROR_CODES, parseServerMessage, serverMessageSchema } from '@/lib/live/protocol';

/**
 * The header of lib/live/protocol.ts lists every message and error of the live channel for a
 * reader (the decision note 0010 points there). It is checked here against the schemas both sides
 * parse with, so a message added, renamed or dropped cannot leave the list behind.
 */
const header = (() => {
  const text = readFileSync('lib/live/protocol.ts', 'utf8');
  return text.slice(text.indexOf('/**'), text.indexOf('*/'));
})();
const table = header.slice(header.indexOf('Client → server'), header.indexOf('Errors'));
const errorsLine = header.slice(header.indexOf('Errors'));

/** The message names in one column of the table: the words that start an entry there. */
function column(side: 'client' | 'server'): Set<string> {
  const names = new Set<string>();
  for (const line of table.split('\n')) {
    const row = line.replace(/^\s*\*/, '');
    const half = side === 'client' ? row.slice(0, 52) : row.slice(52);
    // An entry is a name (or "a / b") followed by its fields or the end of its cell.
    const entry = /^\s{1,3}([a-z_]+)(?:\s*\/\s*([a-z_]+))?(?:\s|$)/.exec(half);
    if (entry) for (const name of entry.slice(1)) if (name) names.add(name);
  }
  return names;
}

describe('the live protocol header lists exactly what the schemas parse', () => {
  it('every client message, and no other', () => {
    const types = clientMessageSchema.options.map((o) => o.shape.t.value);
    expect([...column('client')].sort()).toEqual([...types].sort());
  });
  it('every server message, and no other', () => {
    const types = serverMessageSchema.options.map((o) => o.shape.t.value);
    expect([...column('server')].sort()).toEqual([...types].sort());
  });
  it('every error code, and no other', () => {
    const listed = errorsLine.replace(/Errors \(`error\.code`\):/, '').replace(/\*/g, ' ').split(/[\s,.]+/).filter(Boolean);
    expect([...listed].sort()).toEqual([...LIVE_ERROR_CODES].sort());
  });
});

describe('what a page reads of a newer server (a deploy while it is open)', () => {
  it('reads an error code it does not know as server_error, with the server\'s words', () => {
    expect(parseServerMessage({ t: 'error', code: 'some_new_refusal', message: 'Because.' })).toEqual({
      ok: true, message: { t: 'error', code: 'server_error', message: 'Because.' },
    });
  });
  it('reads an unranked reason or an end it does not know as none: the game still says it is unranked', () => {
    const status = parseServerMessage({ t: 'status', gameId: 'abcdefgh1', ranked: false, reason: 'some_new_reason', pauses: 0, pausesLeft: 0, spectators: 0 });
    expect(status).toEqual({ ok: true, message: { t: 'status', gameId: 'abcdefgh1', ranked: false, pauses: 0, pausesLeft: 0, spectators: 0 } });
    const result = { score: 1, lines: 0, level: 1, pieces: 1, tick: 60, finished: true, toppedOut: false, reason: 'someNewEnd', hash: 'h' };
    const over = parseServerMessage({ t: 'over', gameId: 'abcdefgh1', seed: 's', ranked: false, reason: 'other', result });
    expect(over).toMatchObject({ ok: true, message: { t: 'over', seed: 's', ranked: false, result: { reason: null } } });
    expect(over.ok && over.message.t === 'over' && 'reason' in over.message && over.message.reason).toBeFalsy();
  });
  it('refuses a message of a type it does not know, rather than guess at it', () => {
    expect(parseServerMessage({ t: 'some_new_message', x: 1 })).toMatchObject({ ok: false });
  });
});
