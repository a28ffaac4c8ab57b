import { describe, expect, it } from 'vitest';
import { shouldRetry, submitReplay, type Submission } from '@/lib/client/api';
import { EXPIRED_MESSAGE, keepPending, PENDING_KEY, PendingFlusher, readPending, submitAndSettle } from '@/lib/client/pending';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

const sub = (id: string): Submission => ({ gameId: id, mode: 'sprint', replay: 'TEYB', claimed: { score: 1, lines: 2, ticks: 3 } });
const verified = (id: string) => ({ game: { id, mode: 'sprint', score: 1, lines: 2, ticks: 3, pieces: 4, pps: 1000, kpp: 2000, createdAt: 'x' }, personalBest: true, rank: { all: 1, week: 1, day: 1 }, guest: false });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const offline = () => Promise.reject(new TypeError('Failed to fetch'));

describe('submission outcomes', () => {
  it('retries network failures, 5xx, 408 and 429; everything else is final', () => {
    expect([500, 502, 503, 408, 429].every(shouldRetry)).toBe(true);
    expect([400, 401, 404, 409, 410, 422].some(shouldRetry)).toBe(false);
  });

  it('maps answers to ok / retry / final with the server message', async () => {
    expect((await submitReplay(sub('g1'), () => Promise.resolve(json(201, verified('g1'))))).kind).toBe('ok');
    expect(await submitReplay(sub('g1'), offline)).toEqual({ kind: 'retry', message: 'Could not reach the server.', offline: true });
    // Another account's game (the player signed out, or switched): kept for its owner.
    expect((await submitReplay(sub('g1'), () => Promise.resolve(json(403, { error: { code: 'ticket_forbidden', message: 'No' } })))).kind).toBe('retry');
    expect(await submitReplay(sub('g1'), () => Promise.resolve(json(503, { error: { code: 'down', message: 'Maintenance' } })))).toEqual({ kind: 'retry', message: 'Maintenance' });
    expect(await submitReplay(sub('g1'), () => Promise.resolve(json(422, { error: { code: 'result_mismatch', message: 'Differs' } })))).toEqual({ kind: 'final', code: 'result_mismatch', message: 'Differs' });
    // A repeat of an accepted replay is answered 200 with the stored game; a different one is refused.
    expect((await submitReplay(sub('g1'), () => Promise.resolve(json(200, verified('g1'))))).kind).toBe('ok');
    expect(await submitReplay(sub('g1'), () => Promise.resolve(json(409, { error: { code: 'ticket_used', message: 'Used' } })))).toEqual({ kind: 'final', code: 'ticket_used', message: 'Used' });
    expect(await submitReplay(sub('g1'), () => Promise.resolve(new Response('<html>', { status: 502 })))).toEqual({ kind: 'retry', message: 'The server answered 502.' });
  });
});

describe('pending games', () => {
  it('keeps a game that could not be submitted and drops it once accepted or refused', async () => {
    const store = memory();
    keepPending(store, sub('a'), 0);
    await submitAndSettle(store, sub('a'), offline);
    expect(readPending(store)).toMatchObject([{ gameId: 'a', attempts: 1, lastError: 'Could not reach the server.' }]);
    await submitAndSettle(store, sub('a'), () => Promise.resolve(json(200, verified('a'))));
    expect(readPending(store)).toEqual([]);
    keepPending(store, sub('b'), 0);
    await submitAndSettle(store, sub('b'), () => Promise.resolve(json(410, { error: { code: 'ticket_expired', message: 'Expired' } })));
    expect(readPending(store)).toEqual([]);
  });

  it('flushes saved games in order, past one the server refuses for now, and runs once at a time', async () => {
    const store = memory();
    keepPending(store, sub('a'), 0);
    keepPending(store, sub('b'), 0);
    keepPending(store, sub('c'), 0);
    const calls: string[] = [];
    const fetchImpl = (url: string) => {
      calls.push(url);
      return Promise.resolve(url.includes('/b/') ? json(500, {}) : json(200, verified('x')));
    };
    const f = new PendingFlusher(store, fetchImpl, () => 1);
    const seen: string[] = [];
    f.onSettled((id, o) => seen.push(`${id}:${o.kind}`));
    await Promise.all([f.flush(), f.flush()]);
    expect(calls).toEqual(['/api/games/a/replay', '/api/games/b/replay', '/api/games/c/replay']);
    expect(seen).toEqual(['a:ok', 'b:retry', 'c:ok']);
    expect(readPending(store).map((g) => g.gameId)).toEqual(['b']);
  });

  it('stops flushing while the server is unreachable', async () => {
    const store = memory();
    keepPending(store, sub('a'), 0);
    keepPending(store, sub('b'), 0);
    let calls = 0;
    await new PendingFlusher(store, () => (calls++, offline()), () => 1).flush();
    expect(calls).toBe(1);
    expect(readPending(store).map((g) => g.gameId)).toEqual(['a', 'b']);
  });

  it('honours Retry-After: waits that long before trying again, and holds the queue meanwhile', async () => {
    const store = memory();
    keepPending(store, sub('a'), 0);
    keepPending(store, sub('b'), 0);
    let clock = 1_000;
    const calls: string[] = [];
    let answer = () => new Response(JSON.stringify({ error: { code: 'database_unavailable', message: 'Away' } }), { status: 503, headers: { 'retry-after': '5' } });
    const fetchImpl = (url: string) => (calls.push(url), Promise.resolve(answer()));
    const f = new PendingFlusher(store, fetchImpl, () => clock);
    await f.flush();
    expect(calls).toEqual(['/api/games/a/replay']);
    expect(readPending(store)[0]).toMatchObject({ gameId: 'a', notBefore: 6_000, lastError: 'Away' });
    clock = 5_999;
    await f.flush();
    expect(calls).toHaveLength(2); // 'a' waits; 'b' (no Retry-After yet) is tried and told to wait too
    answer = () => json(201, verified('x'));
    clock = 6_000;
    await f.flush();
    expect(readPending(store).map((g) => g.gameId)).toEqual(['b']);
    clock = 11_000;
    await f.flush();
    expect(readPending(store)).toEqual([]);
  });

  it('answers with the server’s outcome even when storage is full', async () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    };
    expect((await submitAndSettle(full, sub('a'), () => Promise.resolve(json(201, verified('a'))))).kind).toBe('ok');
    expect((await submitAndSettle(full, sub('a'), offline)).kind).toBe('retry');
  });

  it('keeps at most the 50 most recent games: the 51st saved pushes out the oldest', () => {
    const store = memory();
    for (let i = 1; i <= 51; i++) keepPending(store, sub(`g${i}`), i);
    const kept = readPending(store).map((g) => g.gameId);
    expect(kept).toHaveLength(50);
    expect(kept[0]).toBe('g2');
    expect(kept.at(-1)).toBe('g51');
    // Saving one already queued again does not count twice.
    keepPending(store, sub('g51'), 52);
    expect(readPending(store)).toHaveLength(50);
  });

  it('drops games whose ticket expired, saying so, without asking the server; ignores corrupt storage', async () => {
    const store = memory();
    const expiresAt = '2026-11-22T15:00:00.000Z';
    keepPending(store, { ...sub('old'), expiresAt }, 0);
    keepPending(store, { ...sub('young'), expiresAt: '2026-11-22T18:00:00.000Z' }, 0);
    const asked: string[] = [];
    const flusher = new PendingFlusher(store, (url) => (asked.push(url), offline()), () => Date.parse(expiresAt));
    const settled: Array<[string, unknown]> = [];
    flusher.onSettled((id, outcome) => settled.push([id, outcome]));
    await flusher.flush();
    expect(settled[0]).toEqual(['old', { kind: 'final', code: 'ticket_expired', message: EXPIRED_MESSAGE }]);
    expect(asked).toEqual(['/api/games/young/replay']);
    expect(readPending(store).map((g) => g.gameId)).toEqual(['young']);
    store.setItem(PENDING_KEY, '[]');
    store.setItem(PENDING_KEY, '{oops');
    expect(readPending(store)).toEqual([]);
  });
});
