import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_HANDLING, RULES_VERSION } from '@/lib/engine';
import { LiveSession, unrankedReason, type LiveView, type StartResult } from '@/lib/client/live/session';
import { LIVE_PROTOCOL_VERSION, MAX_BATCH_EVENTS, PAGE_SENDS_PER_SECOND, type ClientMessage } from '@/lib/live/protocol';
import { LIVE_LIMITS } from '@/lib/server/limits/rules';
import { pageSockets } from '@/tests/support/page-sockets';

// The solo live session in the browser against a socket that plays the server.
function session() {
  const { sent, sockets, connect, hear } = pageSockets();
  const views: LiveView[] = [];
  const clock = { t: 0 };
  const s = new LiveSession({ url: 'ws://test/api/live', connect, onView: (v) => views.push(v), now: () => clock.t });
  return { s, sent, hear, sockets, clock, view: () => views.at(-1)! };
}
const tick = () => new Promise((r) => setTimeout(r, 0));
const GAME = 'g'.repeat(20);
const BAG = ['T', 'I', 'O', 'S', 'Z', 'J', 'L'] as const;

describe('the solo live session in the browser', () => {
  it('stops playing a game another tab took up (seat_taken): unranked here and why, no more batches, no resume, no end to wait for', async () => {
    const { s, sent, hear, sockets, view } = session();
    const started = s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    await tick();
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    hear({
      t: 'started', gameId: GAME, mode: 'sprint', rulesVersion: RULES_VERSION, handling: DEFAULT_HANDLING, nextCount: 5,
      pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], resumeToken: 'r'.repeat(24), resumeWindowMs: 30_000,
    });
    const res = await started;
    if (!res.ok) throw new Error(res.message);
    res.game.tick([]);
    s.pump(1_000, true);
    expect(sent.filter((m) => m.t === 'inputs')).toHaveLength(1);
    // Another game's is not this one's.
    hear({ t: 'error', code: 'seat_taken', message: 'elsewhere', gameId: 'h'.repeat(20) });
    expect(view().ranked).toBe(true);

    hear({ t: 'error', code: 'seat_taken', message: 'This game is being played in another tab or window now.', gameId: GAME });
    expect(view()).toMatchObject({ ranked: false, reason: 'elsewhere' });
    expect(unrankedReason(view().reason)).toBe('it went on in another tab or window');
    res.game.tick([]);
    s.pump(2_000, true);
    s.pause(2);
    expect(sent.filter((m) => m.t === 'inputs' || m.t === 'pause')).toHaveLength(1);
    expect(s.playedElsewhere).toBe(true);
    expect(await s.finish(60_000)).toBeNull();
    // A reconnect says hello without taking the game back.
    sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    expect(sent.at(-1)).toEqual({ t: 'hello', v: LIVE_PROTOCOL_VERSION });
    hear({ t: 'welcome', v: 2, player: { name: null, guest: true } });
    expect(view()).toMatchObject({ ranked: false, reason: 'elsewhere' });
    s.dispose();
  });

  it('takes its game up after a drop: hello and its resume in one flight, nothing else sent until `resumed`, then what the server lacks', async () => {
    const { s, sent, hear, sockets, view } = session();
    const started = s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    await tick();
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    hear({
      t: 'started', gameId: GAME, mode: 'sprint', rulesVersion: RULES_VERSION, handling: DEFAULT_HANDLING, nextCount: 5,
      pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'], resumeToken: 'r'.repeat(24), resumeWindowMs: 30_000,
    });
    const res = await started;
    if (!res.ok) throw new Error(res.message);
    for (let i = 0; i < 3; i++) {
      res.game.tick([]);
      s.pump(1_000 * (i + 1), true);
    }
    hear({ t: 'ack', stream: GAME, seq: 1, tick: 1 });
    sockets.at(-1)!.close();
    res.game.tick([]); // played while the link is down
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    const flight = sent.slice(-2);
    expect(flight).toEqual([
      { t: 'hello', v: LIVE_PROTOCOL_VERSION },
      { t: 'resume', of: { kind: 'game', id: GAME }, token: 'r'.repeat(24), setup: { handling: DEFAULT_HANDLING, nextCount: 5, tick: 4 } },
    ]);
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    // The link is open, but where the server's copy stands is not known yet: no batch.
    res.game.tick([]);
    s.pump(9_000, true);
    expect(sent.slice(-2)).toEqual(flight);
    hear({ t: 'resumed', gameId: GAME, lastSeq: 1, tick: 1, from: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'] });
    const after = sent.slice(sent.indexOf(flight[1]!) + 1);
    // From the batch after the server's last, up to where the page is now (tick 5).
    expect(after.every((m) => m.t === 'inputs')).toBe(true);
    expect(after[0]).toMatchObject({ t: 'inputs', stream: GAME, seq: 2 });
    expect(after.at(-1)).toMatchObject({ t: 'inputs', tick: 5 });
    expect(view().ranked).toBe(true);
    s.dispose();
  });

  /** A page whose game started on the first seven pieces (`res.game` plays it). */
  async function startedGame() {
    const page = session();
    const started = page.s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    await tick();
    page.hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    page.hear({
      t: 'started', gameId: GAME, mode: 'sprint', rulesVersion: RULES_VERSION, handling: DEFAULT_HANDLING, nextCount: 5,
      pieces: [...BAG], resumeToken: 'r'.repeat(24), resumeWindowMs: 30_000,
    });
    const res = await started;
    if (!res.ok) throw new Error(res.message);
    return { ...page, res };
  }

  /** A game under way, its first batch (tick 1) sent and acknowledged. */
  async function ackedOnce() {
    const page = await startedGame();
    page.res.game.tick([]);
    page.s.pump(1_000, true);
    page.hear({ t: 'ack', stream: GAME, seq: 1, tick: 1 });
    return page;
  }

  /** A game under way, acknowledged up to batch 1, whose link then dropped: the page has sent hello and its resume again. */
  async function droppedMidGame() {
    const page = await ackedOnce();
    page.sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    expect(page.sent.at(-1)).toMatchObject({ t: 'resume', of: { kind: 'game', id: GAME } });
    return page;
  }

  it('asks for a new game only once the resume of the old one is answered: the server takes no old game up into the new one\'s seat', async () => {
    const { s, sent, hear } = await droppedMidGame();
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    expect(sent.filter((m) => m.t === 'start')).toHaveLength(1); // the first game's
    hear({ t: 'resumed', gameId: GAME, lastSeq: 1, tick: 1, from: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'] });
    expect(sent.filter((m) => m.t === 'start')).toHaveLength(2);
    expect(sent.at(-1)).toMatchObject({ t: 'start', mode: 'sprint' });
    s.dispose();
  });

  type Inputs = Extract<ClientMessage, { t: 'inputs' }>;
  /** Hard drops, dealt as the game asks, until it tops out: a game that ended here, its end for the server to store. */
  function playToEnd(page: Awaited<ReturnType<typeof startedGame>>) {
    const { res, hear } = page;
    for (let t = 0; !res.game.over && t < 10_000; t++) {
      if (!res.game.ready) hear({ t: 'deal', stream: GAME, from: res.game.dealt, pieces: [...BAG] });
      res.game.tick([{ key: 'hardDrop', down: t % 2 === 0 }]);
    }
    expect(res.game.over).toBe(true);
  }

  /**
   * A long game, ended here, whose server restarted and took it up from its ticket: the page has heard
   * `resumed` with none of its log and queued it all again, 2.5 seconds' worth at its pace.
   * `drain` moves the page's clock a second at a time until nothing more goes.
   */
  async function resentWhole(seconds = 2.5) {
    const page = await startedGame();
    const { s, sent, hear, sockets, clock, res } = page;
    // Six key events a tick (the most a person may press), until the log is `seconds`' worth of batches.
    const events = Math.ceil(seconds * PAGE_SENDS_PER_SECOND) * MAX_BATCH_EVENTS;
    const keys = (['left', 'right', 'rotateCW'] as const).flatMap((key) => [{ key, down: true }, { key, down: false }]);
    for (let t = 0; res.game.inputs.length < events && !res.game.over; t++) {
      if (!res.game.ready) hear({ t: 'deal', stream: GAME, from: res.game.dealt, pieces: [...BAG] });
      res.game.tick(keys);
      if (t % 600 === 0) s.pump(t, true);
    }
    expect(res.game.inputs.length).toBeGreaterThanOrEqual(events);
    playToEnd(page);
    s.pump(10_000_000, true);
    const live = sent.filter((m) => m.t === 'inputs') as Inputs[];
    hear({ t: 'ack', stream: GAME, seq: live.at(-1)!.seq, tick: live.at(-1)!.tick });
    sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    const helloTick = res.game.snapshot().tick;
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    const mark = sent.length;
    hear({ t: 'resumed', gameId: GAME, lastSeq: 0, tick: 0, from: 0, pieces: [...BAG] });
    const after = () => sent.slice(mark);
    const again = () => after().filter((m) => m.t === 'inputs') as Inputs[];
    const once = () => {
      clock.t += 1_000;
      s.pump(20_000_000 + clock.t, true);
    };
    const drain = Object.assign(() => {
      let seconds = 0;
      for (let last = -1; after().length !== last; seconds++) {
        last = after().length;
        once();
      }
      return seconds;
    }, { once });
    /** The server acknowledges every batch of the game sent so far. */
    const ackSent = () => {
      const last = (sent.filter((m) => m.t === 'inputs' && m.stream === GAME) as Inputs[]).at(-1);
      if (last) hear({ t: 'ack', stream: GAME, seq: last.seq, tick: last.tick });
    };
    return { ...page, helloTick, after, again, drain, ackSent };
  }

  it('sends a long game\'s whole log again at most PAGE_SENDS_PER_SECOND batches a second, in order: the server closes a socket at 80 messages in one', async () => {
    // Two of the page's seconds read in one of the server's (a network hiccup) stay within its budget.
    expect(2 * PAGE_SENDS_PER_SECOND).toBeLessThanOrEqual(LIVE_LIMITS.messagesPerSecond);
    const { s, res, helloTick, again, drain } = await resentWhole();
    expect(again().length).toBeLessThanOrEqual(PAGE_SENDS_PER_SECOND);
    expect(drain()).toBeGreaterThanOrEqual(3);
    const all = again();
    expect(all.map((b) => b.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.flatMap((b) => b.events)).toHaveLength(res.game.inputs.filter((e) => e.tick < helloTick).length);
    expect(all.find((b) => b.tick === helloTick)).toBeDefined();
    s.dispose();
  });

  it('sends a pause after the batches still waiting to go: the server refuses batches that reach it paused', async () => {
    const { s, helloTick, after, drain } = await resentWhole();
    s.pause(helloTick);
    s.unpause(helloTick);
    drain();
    const types = after().map((m) => m.t);
    expect(types.slice(-2)).toEqual(['pause', 'unpause']);
    expect(types.filter((t) => t === 'pause')).toHaveLength(1);
    s.dispose();
  });

  it('asks for the next game only once the last game\'s waiting batches are sent and acknowledged: the server gives a running game up at a start', async () => {
    const { s, res, helloTick, after, again, drain, ackSent } = await resentWhole();
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    expect(after().some((m) => m.t === 'start')).toBe(false);
    drain();
    expect(after().some((m) => m.t === 'start')).toBe(false);
    ackSent();
    const all = again().filter((b) => b.stream === GAME);
    expect(all.flatMap((b) => b.events)).toHaveLength(res.game.inputs.filter((e) => e.tick < helloTick).length);
    expect(all.at(-1)!.tick).toBe(helloTick);
    expect(after().at(-1)).toMatchObject({ t: 'start', mode: 'sprint' });
    expect(after().filter((m) => m.t === 'start')).toHaveLength(1);
    s.dispose();
  });

  it('keeps the last game\'s waiting batches across a dropped link while the next game waits for them: it takes that game up again, sends what it lacks, then asks', async () => {
    const { s, sent, hear, sockets, res, helloTick, again, drain, ackSent } = await resentWhole();
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    drain.once();
    const reached = again().at(-1)!; // the server holds these; the rest wait their turn
    expect(reached.seq).toBeLessThan(Math.ceil(2.5 * PAGE_SENDS_PER_SECOND));
    sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    expect(sent.at(-1)).toMatchObject({ t: 'resume', of: { kind: 'game', id: GAME } });
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    const mark = sent.length;
    hear({ t: 'resumed', gameId: GAME, lastSeq: reached.seq, tick: reached.tick, from: 0, pieces: [...BAG] });
    drain();
    ackSent();
    const rest = sent.slice(mark).filter((m) => m.t === 'inputs') as Inputs[];
    expect(rest[0]!.seq).toBe(reached.seq + 1);
    const held = [...again().filter((b) => b.seq <= reached.seq), ...rest];
    expect(held.flatMap((b) => b.events)).toHaveLength(res.game.inputs.filter((e) => e.tick < helloTick).length);
    expect(sent.at(-1)).toMatchObject({ t: 'start', mode: 'sprint' });
    expect(sent.slice(mark).filter((m) => m.t === 'start')).toHaveLength(1);
    // Asked for, the old game is not taken up again on the next link.
    sockets.at(-1)!.close();
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    expect(sent.at(-1)).toEqual({ t: 'hello', v: LIVE_PROTOCOL_VERSION });
    s.dispose();
  });

  it('asks for the next game only once the server holds every batch of the last: one it refused goes again first, with nothing pumping', async () => {
    const { s, sent, hear, clock, again } = await resentWhole();
    const asked = () => sent.slice(first).some((m) => m.t === 'start');
    const first = sent.length;
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    const drained = () => {
      // The page between games: nothing pumps, the outbox lets itself out on its timers.
      for (let i = 0; i < 10; i++) {
        clock.t += 1_000;
        (s as unknown as { flush(): void }).flush();
      }
    };
    drained();
    expect(asked()).toBe(false); // all went out, none acknowledged yet
    const all = again();
    const refusedAt = all[all.length - 3]!;
    hear({ t: 'ack', stream: GAME, seq: refusedAt.seq - 1, tick: all[all.length - 4]!.tick });
    hear({ t: 'error', code: 'out_of_order', message: 'out of order', gameId: GAME, seq: refusedAt.seq });
    const mark = sent.length;
    drained();
    expect(sent.slice(mark).filter((m) => m.t === 'inputs').map((m) => (m as Inputs).seq)).toEqual(all.slice(-3).map((b) => b.seq));
    expect(asked()).toBe(false);
    hear({ t: 'ack', stream: GAME, seq: all.at(-1)!.seq, tick: all.at(-1)!.tick });
    expect(sent.at(-1)).toMatchObject({ t: 'start', mode: 'sprint' });
    s.dispose();
  });

  it('does not take the last game up again on a new link when the server acknowledged all of it: another tab may play it now', async () => {
    const page = await ackedOnce();
    const { s, sent, hear, sockets } = page;
    playToEnd(page);
    s.pump(2_000, true);
    const last = sent.at(-1) as Inputs;
    hear({ t: 'ack', stream: GAME, seq: last.seq, tick: last.tick });
    sockets.at(-1)!.close();
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    expect(sent.at(-1)).toEqual({ t: 'hello', v: LIVE_PROTOCOL_VERSION });
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    expect(sent.at(-1)).toMatchObject({ t: 'start', mode: 'sprint' });
    s.dispose();
  });

  it('says unpause before the batches it sends again to a game it paused: the server holds the pause and refuses a batch while paused', async () => {
    const { s, sent, hear, res, clock } = await ackedOnce();
    for (let i = 0; i < 3; i++) {
      res.game.tick([{ key: 'left', down: i % 2 === 0 }]);
      s.pump(2_000 + i * 1_000, true);
    }
    s.pause(4); // reaches the server; batch 2 did not (over its budget)
    hear({ t: 'error', code: 'rate_limited', message: 'At most 40 messages a second.' });
    const mark = sent.length;
    clock.t += 1_500;
    (s as unknown as { flush(): void }).flush(); // its timer's turn: the page pumps nothing while paused
    expect(sent.slice(mark).map((m) => m.t)).toEqual(['unpause', 'inputs', 'inputs', 'inputs', 'pause']);
    s.dispose();
  });

  it('asks for the next game at once when the last was given up mid-game: the server gives it up at the start, nothing of it waits for an acknowledgment', async () => {
    const { s, sent, res } = await ackedOnce();
    res.game.tick([{ key: 'left', down: true }]);
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    expect(sent.slice(-2).map((m) => m.t)).toEqual(['inputs', 'start']);
    s.dispose();
  });

  it('asks for the next game past the last\'s queued batches when it was given up mid-game: they would only hold the start up', async () => {
    const { s, sent, res } = await ackedOnce();
    for (let i = 0; i < 2 * PAGE_SENDS_PER_SECOND; i++) {
      res.game.tick([{ key: 'left', down: i % 2 === 0 }]);
      s.pump(2_000 + i, true); // a fast player's batches, one a lock: more than a second's worth waits
    }
    const mark = sent.length;
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    expect(sent.slice(mark).map((m) => m.t)).toEqual(['start']);
    s.dispose();
  });

  it('sends the last game\'s batches again when nothing answers them for a start\'s timeout, and asks once they are held', async () => {
    const { s, after, drain, ackSent } = await resentWhole();
    drain(); // all went out; no acknowledgment came back (a notice past the budget, an error naming nothing)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled: StartResult | null = null;
      void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 }).then((r) => (settled = r));
      const mark = after().length;
      for (let i = 0; i < 14; i++) {
        drain.once();
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(after().slice(mark).some((m) => m.t === 'inputs')).toBe(true);
      ackSent();
      expect(after().at(-1)).toMatchObject({ t: 'start' });
      expect(settled).toBeNull();
    } finally {
      vi.useRealTimers();
      s.dispose();
    }
  });

  it('gives the last game up after a start\'s waits if its batches are refused every time, and then sends no start it says failed', async () => {
    const { s, hear, after, drain } = await resentWhole();
    drain();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled: StartResult | null = null;
      void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 }).then((r) => (settled = r));
      for (let i = 0; i < 200 && settled === null; i++) {
        hear({ t: 'error', code: 'out_of_order', message: 'expected batch 1', gameId: GAME });
        drain.once();
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(settled).toMatchObject({ ok: false });
      expect(after().some((m) => m.t === 'start')).toBe(false);
      drain.once();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(after().some((m) => m.t === 'start')).toBe(false);
    } finally {
      vi.useRealTimers();
      s.dispose();
    }
  });

  it('keeps the last game past a start\'s waits when its link is taking it up again at that moment: the resume\'s answer sends what it lacks', async () => {
    const { s, hear, sockets, sent, clock, drain } = await resentWhole();
    drain();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled: StartResult | null = null;
      void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 }).then((r) => (settled = r));
      for (let i = 0; i < 125; i++) {
        hear({ t: 'error', code: 'out_of_order', message: 'expected batch 1', gameId: GAME });
        drain.once();
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(settled).toBeNull();
      sockets.at(-1)!.close();
      clock.t += 2_000;
      await vi.advanceTimersByTimeAsync(2_000);
      expect(sent.at(-1)).toMatchObject({ t: 'resume', of: { kind: 'game', id: GAME } });
      hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
      clock.t += 10_000;
      await vi.advanceTimersByTimeAsync(10_000); // the start's last wait ends, the resume still unanswered
      expect(settled).toMatchObject({ ok: false });
      const mark = sent.length;
      hear({ t: 'resumed', gameId: GAME, lastSeq: 0, tick: 0, from: 0, pieces: [...BAG] });
      expect(sent.slice(mark).some((m) => m.t === 'inputs' && m.stream === GAME)).toBe(true);
    } finally {
      vi.useRealTimers();
      s.dispose();
    }
  });

  it('takes the last game up again when it ended while the link was down, sends its end, then asks for the next', async () => {
    const page = await ackedOnce();
    const { s, sent, hear, sockets, res } = page;
    playToEnd(page); // played, not cut yet (the page cuts every 100 ms)
    sockets.at(-1)!.close(); // and the link dropped before it did
    void s.finish(60_000);
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    expect(sent.at(-1)).toMatchObject({ t: 'resume', of: { kind: 'game', id: GAME } });
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    const mark = sent.length;
    hear({ t: 'resumed', gameId: GAME, lastSeq: 1, tick: 1, from: 0, pieces: [...BAG] });
    const rest = sent.slice(mark).filter((m) => m.t === 'inputs') as Inputs[];
    expect(rest.flatMap((b) => b.events)).toHaveLength(res.game.inputs.length);
    expect(rest.at(-1)!.tick).toBe(res.game.snapshot().tick);
    expect(sent.slice(mark).some((m) => m.t === 'start')).toBe(false);
    hear({ t: 'ack', stream: GAME, seq: rest.at(-1)!.seq, tick: rest.at(-1)!.tick });
    expect(sent.at(-1)).toMatchObject({ t: 'start' });
    s.dispose();
  });

  it('keeps the last game through a refusal the server means as passing (it is shutting down): its batches go again on the next link', async () => {
    const page = await ackedOnce();
    const { s, sent, hear } = page;
    playToEnd(page);
    s.pump(2_000, true);
    const asked = sent.length;
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'error', code: 'server_error', message: 'The server is restarting: this goes again once you have reconnected.', gameId: GAME });
    hear({ t: 'error', code: 'desync', message: 'The play hash differs.', gameId: GAME });
    expect(sent.slice(asked).some((m) => m.t === 'start')).toBe(false);
    s.dispose();
  });

  it('hands the last game its end when it answers that game\'s resume, and asks for the next', async () => {
    const page = await droppedMidGame();
    const { s, sent, hear } = page;
    playToEnd(page);
    const ended = s.finish(60_000);
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    const over = { t: 'over' as const, gameId: GAME, seed: 's'.repeat(16), ranked: true };
    hear(over);
    expect(await ended).toEqual(over);
    expect(sent.at(-1)).toMatchObject({ t: 'start' });
    s.dispose();
  });

  it('lets the next game wait past the start timeout while the last game\'s backlog is still going out: the server is answering, the page is pacing', async () => {
    const { s, after, drain, helloTick, ackSent, clock } = await resentWhole();
    // The tab hidden and shown again a hundred times meanwhile: 200 messages more, 12.5 s in all at the page's pace.
    for (let i = 0; i < 100; i++) {
      s.pause(helloTick);
      s.unpause(helloTick);
    }
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled: StartResult | null = null;
      void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 }).then((r) => (settled = r));
      for (let i = 0; i < 14 && !after().some((m) => m.t === 'start'); i++) {
        drain.once();
        ackSent();
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(settled).toBeNull();
      expect(after().filter((m) => m.t === 'start')).toHaveLength(1);
      // Sent at last: unanswered, it is late START_TIMEOUT_MS after it went, not at the timer's next turn.
      const sentAt = clock.t;
      for (let waited = 0; waited < 9_000; waited += 1_000) {
        clock.t += 1_000;
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(settled).toBeNull();
      clock.t += 2_000;
      await vi.advanceTimersByTimeAsync(2_000);
      expect(clock.t - sentAt).toBeGreaterThan(10_000);
      expect(settled).toMatchObject({ ok: false });
    } finally {
      vi.useRealTimers();
      s.dispose();
    }
  });

  it('says again after a resume whether its game is paused: an unpause made while the link was down is not lost, nor a pause made during the resume', async () => {
    const { s, sent, hear, sockets, res } = await ackedOnce();
    const redial = async () => {
      sockets.at(-1)!.close();
      await new Promise((r) => setTimeout(r, 1_500));
      await tick();
      hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    };
    const resumed = () => hear({ t: 'resumed', gameId: GAME, lastSeq: 1, tick: 1, from: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'] });
    const said = (from: number) => sent.slice(from).filter((m) => m.t === 'pause' || m.t === 'unpause' || m.t === 'inputs').map((m) => m.t);
    // Paused with the link up (the tab hidden); back while it is down: the server still has the game paused.
    s.pause(1);
    expect(sent.at(-1)).toMatchObject({ t: 'pause', gameId: GAME });
    sockets.at(-1)!.close();
    s.unpause(1);
    res.game.tick([]);
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    let mark = sent.length;
    resumed();
    expect(said(mark)).toEqual(['unpause', 'inputs']); // the unpause first: the server refuses a batch while paused
    // Hidden again during the next resume: the server cannot take a pause before it holds the game.
    await redial();
    mark = sent.length;
    s.pause(2);
    expect(said(mark)).toEqual([]);
    resumed();
    expect(said(mark).at(-1)).toBe('pause'); // after the batches
    expect(said(mark).filter((t) => t === 'pause')).toHaveLength(1);
    s.unpause(2);
    expect(sent.at(-1)).toMatchObject({ t: 'unpause', gameId: GAME });
    s.dispose();
  });

  it('asks for a new game asked for during a resume once that is answered, with a pause made meanwhile still waiting to go', async () => {
    const { s, sent, hear } = await droppedMidGame();
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    s.pause(2); // the window lost focus while the resume was on its way
    void s.start({ mode: 'sprint', handling: DEFAULT_HANDLING, nextCount: 5 });
    const starts = sent.filter((m) => m.t === 'start').length;
    hear({ t: 'resumed', gameId: GAME, lastSeq: 1, tick: 1, from: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'] });
    expect(sent.filter((m) => m.t === 'start')).toHaveLength(starts + 1);
    s.dispose();
  });

  it('cuts what was played while the link was down before it says again that the game is paused: the server refuses a batch once paused', async () => {
    const { s, sent, hear, sockets, res } = await ackedOnce();
    sockets.at(-1)!.close();
    res.game.tick([{ key: 'left', down: true }]); // played while the link was down
    s.pause(2);
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    const mark = sent.length;
    hear({ t: 'resumed', gameId: GAME, lastSeq: 1, tick: 1, from: 0, pieces: ['T', 'I', 'O', 'S', 'Z', 'J', 'L'] });
    const after = sent.slice(mark);
    expect(after.at(-1)).toMatchObject({ t: 'pause', gameId: GAME });
    expect(after.filter((m) => m.t === 'inputs').flatMap((m) => (m.t === 'inputs' ? m.events : []))).toHaveLength(1);
    s.dispose();
  });

  it('dials again when the server fails its resume (server_error, naming nothing), and asks again', async () => {
    const { s, sent, hear, sockets } = await droppedMidGame();
    hear({ t: 'welcome', v: LIVE_PROTOCOL_VERSION, player: { name: null, guest: true } });
    const dialled = sockets.length;
    hear({ t: 'error', code: 'server_error', message: 'The server could not handle this message.' });
    await new Promise((r) => setTimeout(r, 1_500));
    await tick();
    expect(sockets.length).toBe(dialled + 1);
    expect(sent.slice(-2)).toMatchObject([{ t: 'hello' }, { t: 'resume', of: { kind: 'game', id: GAME } }]);
    s.dispose();
  });
});
