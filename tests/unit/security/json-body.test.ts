import { describe, expect, it } from 'vitest';
import { readJson } from '@/lib/server/http';

const post = (body: string, type?: string) =>
  new Request('http://localhost/api/games', { method: 'POST', body, headers: type ? { 'content-type': type } : {} });

describe('JSON routes take only application/json', () => {
  it('refuses a form or plain-text body (which another site could send without asking) with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
      const result = await readJson(post('{"mode":"sprint"}', type));
      expect(result.ok, String(type)).toBe(false);
      if (!result.ok) expect(result.response.status, String(type)).toBe(415);
    }
  });

  it('accepts application/json, with or without a charset', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON']) {
      expect(await readJson(post('{"mode":"sprint"}', type)), type).toEqual({ ok: true, value: { mode: 'sprint' } });
    }
  });
});
