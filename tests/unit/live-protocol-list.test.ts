import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientMessageSchema, LIVE_ERROR_CODES, serverMessageSchema } from '@/lib/live/protocol';

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
