import { describe, expect, it, vi } from 'vitest';
import { HOME_LINE_LIMITS, RoomHome, TAKE_UP_WAIT_MS, type LineSender } from '@/lib/server/live/cluster/room-home';
import type { RoomSetKeeper } from '@/lib/server/live/cluster/room-sets';
import { RoomLobby } from '@/lib/server/live/rooms/room-lobby';

/**
 * Room messages reaching a versus home while it takes room sets up wait, in order, for the take-up
 * (so a resume finds its set). An attacker's sockets sending room messages all along must not make
 * that wait grow without bound: past a socket's share, or the home's, the socket is closed 1013
 * (try again later) and nothing of it is kept.
 */
function home() {
  let release!: () => void;
  const takingUp = new Promise<void>((resolve) => (release = resolve));
  // The keeper's take-up, held until the test lets it end (RoomSetKeeper's own is tested on Redis, room-takeup).
  const keeper = { takingUp: takingUp as Promise<void> | null, handedOver: false, lost: () => {}, takeUp: () => takingUp, handOver: async () => {}, close: () => {} };
  void takingUp.then(() => (keeper.takingUp = null));
  const state = { home: true };
  const line = new RoomHome({ keeper: keeper as unknown as RoomSetKeeper, rooms: new RoomLobby(), isHome: () => state.home, claim: async () => 'here' });
  return { line, state, release: () => (release(), takingUp) };
}

function sender() {
  const closed: number[] = [];
  const errors: string[] = [];
  const s: LineSender = { open: true, close: (code) => void closed.push(code), error: (code) => void errors.push(code) };
  return { s, closed, errors };
}

describe('room messages at a home taking sets up', () => {
  it('wait for the take-up and then run in the order they came', async () => {
    const { line, release } = home();
    const ran: number[] = [];
    const a = sender();
    for (let i = 0; i < 3; i++) void line.inOrder(() => void ran.push(i), a.s, 'a');
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).toEqual([]);
    expect(line.queued).toBe(3);
    await release();
    await expect.poll(() => ran).toEqual([0, 1, 2]);
    expect(line.queued).toBe(0);
    expect(a.closed).toEqual([]);
  });

  it('keep no more than a socket’s share from one socket: the rest closes it 1013, unkept', async () => {
    const { line, release } = home();
    const ran: number[] = [];
    const mallory = sender();
    for (let i = 0; i < 10 * HOME_LINE_LIMITS.perSocket; i++) void line.inOrder(() => void ran.push(i), mallory.s, 'mallory');
    expect(line.queued).toBe(HOME_LINE_LIMITS.perSocket);
    expect(mallory.closed.length).toBeGreaterThan(0);
    expect(new Set(mallory.closed)).toEqual(new Set([1013]));
    // Another socket still gets in line.
    const alice = sender();
    void line.inOrder(() => void ran.push(-1), alice.s, 'alice');
    expect(alice.closed).toEqual([]);
    await release();
    await expect.poll(() => ran.length).toBe(HOME_LINE_LIMITS.perSocket + 1);
    expect(ran.at(-1)).toBe(-1);
  });

  it('keep no more than the home’s bound from many sockets', async () => {
    const { line, release } = home();
    let ran = 0;
    const refused: number[] = [];
    const sockets = Math.ceil((2 * HOME_LINE_LIMITS.waiting) / HOME_LINE_LIMITS.perSocket);
    for (let k = 0; k < sockets; k++) {
      const s = sender();
      for (let i = 0; i < HOME_LINE_LIMITS.perSocket; i++) void line.inOrder(() => void ran++, s.s, `s${k}`);
      refused.push(...s.closed);
    }
    expect(line.queued).toBe(HOME_LINE_LIMITS.waiting);
    expect(refused.length).toBe(sockets * HOME_LINE_LIMITS.perSocket - HOME_LINE_LIMITS.waiting);
    await release();
    await expect.poll(() => ran).toBe(HOME_LINE_LIMITS.waiting);
    // Once the take-up is over the line is empty, and a socket refused before is let in again.
    expect(line.queued).toBe(0);
    const back = sender();
    void line.inOrder(() => void ran++, back.s, 's0');
    expect(back.closed).toEqual([]);
  });

  it('let a message naming what is held here already go at once, unless its socket has one waiting (its order kept)', async () => {
    const { line, release } = home();
    const ran: string[] = [];
    const alice = sender();
    // Alice's seat plays a set taken up already: her batches do not wait on the take-up's retries.
    void line.inOrder(() => void ran.push('alice batch'), alice.s, 'alice', true);
    expect(ran).toEqual(['alice batch']);
    // Bob's resume of a set not here yet waits; his next message, though it names a room here, waits behind it.
    const bob = sender();
    void line.inOrder(() => void ran.push('bob resume'), bob.s, 'bob');
    void line.inOrder(() => void ran.push('bob watch'), bob.s, 'bob', true);
    expect(ran).toEqual(['alice batch']);
    await release();
    await expect.poll(() => ran).toEqual(['alice batch', 'bob resume', 'bob watch']);
  });

  it('count down whatever becomes of a message: one that throws or rejects (its socket told), one at an instance no longer the home (closed 1012)', async () => {
    const first = home();
    const a = sender();
    void first.line.inOrder(() => {
      throw new Error('a bug in one room message');
    }, a.s, 'a');
    void first.line.inOrder(() => Promise.reject(new Error('a failed store')), a.s, 'a');
    expect(first.line.queued).toBe(2);
    await first.release();
    await expect.poll(() => a.errors).toEqual(['server_error', 'server_error']);
    expect(first.line.queued).toBe(0);

    const second = home();
    const b = sender();
    for (let i = 0; i < HOME_LINE_LIMITS.perSocket; i++) void second.line.inOrder(() => {}, b.s, 'b');
    second.state.home = false;
    await second.release();
    await expect.poll(() => second.line.queued).toBe(0);
    expect(new Set(b.closed)).toEqual(new Set([1012]));
    // Home again, the take-up over: nothing of theirs is left counted, so each message runs at once.
    second.state.home = true;
    let ran = 0;
    for (const [line, s, key] of [[first.line, a, 'a'], [second.line, b, 'b']] as const) {
      const before = s.closed.length;
      for (let i = 0; i < 2 * HOME_LINE_LIMITS.perSocket; i++) void line.inOrder(() => void ran++, s.s, key);
      expect(s.closed.length).toBe(before);
    }
    expect(ran).toBe(4 * HOME_LINE_LIMITS.perSocket);
  });

  it('wait no longer than TAKE_UP_WAIT_MS: a take-up still under way then closes the socket 1013, unhandled (the page sends it again), and a socket closed meanwhile has nothing handled', async () => {
    vi.useFakeTimers();
    try {
      const { line, release } = home();
      const ran: string[] = [];
      const late = sender();
      const gone = sender();
      void line.inOrder(() => void ran.push('late'), late.s, 'late');
      void line.inOrder(() => void ran.push('gone'), { ...gone.s, open: false }, 'gone');
      await vi.advanceTimersByTimeAsync(TAKE_UP_WAIT_MS - 1);
      expect(late.closed).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(late.closed).toEqual([1013]);
      expect(line.queued).toBe(0);
      await release();
      await vi.advanceTimersByTimeAsync(0);
      expect(ran).toEqual([]);
      expect(gone.closed).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
