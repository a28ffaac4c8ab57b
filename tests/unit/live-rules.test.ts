import { describe, expect, it } from 'vitest';
import { MAX_LIVE_MESSAGE_BYTES, parseClientMessage } from '@/lib/live/protocol';
import { decodeReplay, DEFAULT_HANDLING, encodeReplay, replayConfig, RULES_VERSION } from '@/lib/engine';
import { paceDecision } from '@/lib/server/games/paced';
import { PACING, paceOf, starveCreditOf } from '@/lib/server/live/pacing';

describe('pace of a live game', () => {
  const at = (tick: number, elapsedMs: number, excusedMs = 0, starveCreditMs = 0) => paceOf({ tick, elapsedMs, excusedMs }, PACING.behindToleranceMs + starveCreditMs);

  it('accepts a game a little behind the wall clock', () => {
    expect(at(600, 10_100)).toBe('ok');
    expect(at(600, 10_000 + PACING.behindToleranceMs)).toBe('ok');
  });
  it('refuses a game that runs ahead of the wall clock beyond the slack', () => {
    expect(at(600, 10_000 - PACING.aheadSlackMs)).toBe('ok');
    expect(at(600, 10_000 - PACING.aheadSlackMs - 20)).toBe('ahead');
  });
  it('calls a game too slow past the tolerance, unless pauses, time away or waits for pieces excuse it', () => {
    const late = 10_000 + PACING.behindToleranceMs + 500;
    expect(at(600, late)).toBe('behind');
    expect(at(600, late, 500)).toBe('ok');
    expect(at(600, late, 0, 500)).toBe('ok');
  });
  it('credits a wait for pieces with the measured round trip and a frame or two, never more than the cap', () => {
    expect(starveCreditOf(20)).toBe(20 + PACING.starveFrameMs);
    expect(starveCreditOf(10_000)).toBe(PACING.starveCreditMaxMs);
    // Nothing measured yet (or a seat without a meter): the cap, what any client could get by holding its pongs.
    expect(starveCreditOf(null)).toBe(PACING.starveCreditMaxMs);
  });
});

describe('pacing decision on a proven replay', () => {
  it('holds a game that was not live, or whose stream broke off, as unpaced with its reason', () => {
    expect(paceDecision({ live: false, streamDigest: null, liveUnranked: null }, 'd')).toMatchObject({ ok: true, hold: { reason: 'not_live' } });
    expect(paceDecision({ live: true, streamDigest: null, liveUnranked: null }, 'd')).toMatchObject({ ok: true, hold: { reason: 'stream_incomplete' } });
    expect(paceDecision({ live: true, streamDigest: 'd', liveUnranked: 'pause_budget' }, 'd')).toMatchObject({ ok: true, hold: { reason: 'pause_budget' } });
    // disconnected is the total away budget, not the resume window (missing that is stream_incomplete).
    expect(paceDecision({ live: true, streamDigest: 'd', liveUnranked: 'disconnected' }, 'd')).toMatchObject({
      ok: true,
      hold: { reason: 'disconnected', message: expect.stringContaining(`more than ${PACING.maxAwayMs / 1000} s in all`) },
    });
  });
  it('ranks exactly the streamed game and refuses any other', () => {
    expect(paceDecision({ live: true, streamDigest: 'd', liveUnranked: null }, 'd')).toEqual({ ok: true, hold: null });
    expect(paceDecision({ live: true, streamDigest: 'd', liveUnranked: null }, 'e')).toMatchObject({ ok: false, code: 'stream_mismatch' });
  });
});

describe('live messages', () => {
  const inputs = (events: string) => parseClientMessage(`{"t":"inputs","stream":"abcdefgh1","seq":1,"tick":5,"events":${events}}`);
  const acks = (list: string) => parseClientMessage(`{"t":"inputs","stream":"abcdefgh1","game":0,"seq":1,"tick":5,"events":[],"acks":${list}}`);

  it('take events as bounded integer triples, naming the first bad number, and no garbage acks', () => {
    expect(inputs('[[0,0,1],[216000,8,0]]')).toMatchObject({ ok: true, message: { events: [[0, 0, 1], [216000, 8, 0]] } });
    expect(inputs('[[1,2,1],[3,2,2]]')).toMatchObject({ ok: false, message: 'events.1.2: expected an integer from 0 to 1' });
    expect(inputs('[[1.5,2,1]]')).toMatchObject({ ok: false, message: 'events.0.0: expected an integer from 0 to 216000' });
    expect(inputs('[[-1,2,1]]')).toMatchObject({ ok: false, message: expect.stringContaining('events.0.0') });
    expect(inputs('[["1",2,1]]')).toMatchObject({ ok: false, message: expect.stringContaining('events.0.0') });
    expect(inputs('[[1,2]]')).toMatchObject({ ok: false, message: 'events.0: expected a list of 3 numbers' });
    expect(inputs('[[1,2,1,0]]')).toMatchObject({ ok: false, message: 'events.0: expected a list of 3 numbers' });
    expect(inputs('{"0":[1,2,1]}')).toMatchObject({ ok: false, message: 'events: expected an array' });
    // Rules 6: the server picks garbage's tick; what an old or modified client says it acknowledged is dropped unread.
    const parsed = acks('[[4,120]]');
    expect(parsed).toMatchObject({ ok: true });
    expect(parsed.ok && 'acks' in parsed.message).toBe(false);
    expect(inputs('null')).toMatchObject({ ok: false, message: 'events: expected an array' });
    expect(inputs('[null]')).toMatchObject({ ok: false, message: 'events.0: expected a list of 3 numbers' });
    expect(inputs('[[1,null,1]]')).toMatchObject({ ok: false, message: 'events.0.1: expected an integer from 0 to 8' });
  });

  it('parse, or name what is wrong with a typed code', () => {
    expect(parseClientMessage('{"t":"ping","n":3}')).toEqual({ ok: true, message: { t: 'ping', n: 3 } });
    expect(parseClientMessage('{nope')).toMatchObject({ ok: false, code: 'bad_message' });
    expect(parseClientMessage('{"t":"inputs","stream":"abcdefgh1","seq":1,"tick":5,"events":[[1,9,1]]}')).toMatchObject({ ok: false, code: 'bad_message', message: expect.stringContaining('events.0.1') });
    expect(parseClientMessage(`{"t":"inputs","stream":"abcdefgh1","seq":1,"tick":5,"events":[${'[1,2,1],'.repeat(256)}[1,2,0]]}`)).toMatchObject({ ok: false, message: 'events: at most 256 items' });
    expect(parseClientMessage(`{"t":"ping","n":1,"x":"${'a'.repeat(MAX_LIVE_MESSAGE_BYTES)}"}`)).toMatchObject({ ok: false, code: 'too_large' });
  });

  it('refuse what instances say to each other: a client cannot claim a match was hosted, taken up or ended', () => {
    // The bus's versus wire (redis-bus.ts) is heard only from Redis; a socket naming it is a bad message.
    for (const wire of [
      { k: 'vhosting', from: 'x', id: 'r1', matchId: 'abcdefgh1' },
      { t: 'vhosting', from: 'x', id: 'r1', matchId: 'abcdefgh1' },
      { t: 'vtaken', from: 'x', id: 'r1' },
      { t: 'vafter', from: 'x', req: { id: 'r1' }, matchId: 'abcdefgh1', links: [null, null] },
    ]) expect(parseClientMessage(JSON.stringify(wire))).toMatchObject({ ok: false, code: 'bad_message' });
  });
});

describe('the drill lock rule stays out of ranked play', () => {
  // `lock: 'hardDrop'` (a piece that never locks by itself) is for practice drills: a modified
  // client naming it in a live start, or in a replay it submits, must not get it.
  it('a live start naming it is read without it', () => {
    const parsed = parseClientMessage(JSON.stringify({ t: 'start', mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5, lock: 'hardDrop' }));
    expect(parsed.ok).toBe(true);
    expect(parsed.ok && 'lock' in parsed.message).toBe(false);
  });

  it('a replay cannot carry it: encoded and decoded, and as the game a verification plays, it is gone', () => {
    const replay = { rulesVersion: RULES_VERSION, mode: 'sprint' as const, seed: 'drill', handling: DEFAULT_HANDLING, events: [], lock: 'hardDrop' };
    const decoded = decodeReplay(encodeReplay(replay));
    expect('lock' in decoded).toBe(false);
    expect('lock' in replayConfig(replay)).toBe(false);
  });
});
