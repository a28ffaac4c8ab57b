/**
 * A live-channel client for tests and the benchmark: a real WebSocket to a real server, the real
 * dealt engine, and a bot that plays at real pace (about 3 pieces a second with jittered,
 * human-like key timing), sending a batch every 100 ms as the browser does.
 *
 *   const c = await LiveClient.connect(url, { address: '10.0.0.7' });
 *   const game = await playLive(c, { mode: 'marathon', maxPieces: 12 });   // until game over
 */
import WebSocket from 'ws';
import { cheeseOf, createDealtGame, encodeReplay, MODES, PIECES, placedCells, ROTATIONS, TICKS_PER_SECOND } from '@/lib/engine';
import { collides } from '@/lib/engine/board';
import { best, bitboardOf, candidates } from '@/lib/bot/search';
import type { DealtGame, Handling, InputEvent, Key, Mode, PieceType, Rotation } from '@/lib/engine';
import { LIVE_BUNDLES_PARAM, LIVE_PATH, LIVE_PROTOCOL_VERSION, messagesOfFrame, serverMessageSchema, toWireEvent, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';
import { BatchClock } from '@/tests/support/batch-clock';

type Msg = ServerMessage;

export class LiveClient {
  readonly inbox: Msg[] = [];
  private waiters: Array<{ pred: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  closed: Promise<{ code: number }>;
  /**
   * Every received message, in order, for invariant checks. Returning true says it was handled: a
   * waiting `next` still gets it, but it is not kept for a later one (a long bot game's acks and
   * deals would otherwise pile up in the inbox, and the bench's collector would trace them all).
   */
  onMessage: ((m: Msg) => boolean | void) | null = null;
  /** The Set-Cookie headers of the 101 (a guest cookie minted for a socket that brought none). */
  setCookies: string[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      for (const value of messagesOfFrame(String(data))) {
        // As the browser does (lib/client/live/socket.ts): every message the server sends must parse.
        const m = serverMessageSchema.parse(value);
        const handled = this.onMessage?.(m) === true;
        const i = this.waiters.findIndex((w) => w.pred(m));
        if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(m);
        else if (!handled) this.inbox.push(m);
      }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve({ code })));
  }

  /** `address`: the client address a trusted proxy would forward (servers run with TRUST_PROXY_HOPS=1). */
  static async connect(baseUrl: string, options: { address?: string; cookie?: string; bundles?: boolean } = {}): Promise<LiveClient> {
    const headers: Record<string, string> = {};
    if (options.address) headers['x-forwarded-for'] = options.address;
    if (options.cookie) headers.cookie = options.cookie;
    // As the browser does, it takes several messages in one frame (`bundles: false`: one per frame).
    const query = options.bundles === false ? '' : `?${LIVE_BUNDLES_PARAM}=1`;
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + LIVE_PATH + query, { headers, perMessageDeflate: false });
    const client = new LiveClient(ws);
    ws.once('upgrade', (res) => {
      const set = res.headers['set-cookie'];
      client.setCookies = Array.isArray(set) ? set : set ? [set] : [];
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    return client;
  }

  send(message: ClientMessage | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** The next message (already received or still to come) that matches. */
  next<T extends Msg['t']>(t: T, pred: (m: Extract<Msg, { t: T }>) => boolean = () => true, timeoutMs = 10_000): Promise<Extract<Msg, { t: T }>> {
    return this.nextWhere((m) => m.t === t && pred(m as Extract<Msg, { t: T }>), t, timeoutMs) as Promise<Extract<Msg, { t: T }>>;
  }

  /**
   * Takes a solo game up again as the browser does after a dropped socket: hello, then its resume
   * (with `setup`, so a server that lost it adopts it from its ticket). Its `resumed`, or the
   * refusal naming the game, thrown.
   */
  async resume(gameId: string, token: string, setup?: Extract<ClientMessage, { t: 'resume' }>['setup']): Promise<Extract<Msg, { t: 'resumed' }>> {
    this.send({ t: 'hello', v: LIVE_PROTOCOL_VERSION });
    this.send({ t: 'resume', of: { kind: 'game', id: gameId }, token, ...(setup ? { setup } : {}) });
    const answer = await this.nextWhere((m) => (m.t === 'resumed' || m.t === 'error') && m.gameId === gameId, 'resumed', 15_000);
    if (answer.t !== 'resumed') throw new Error(`resume refused: ${answer.t === 'error' ? `${answer.code}: ${answer.message}` : answer.t}`);
    return answer;
  }

  private nextWhere(match: (m: Msg) => boolean, what: string, timeoutMs: number): Promise<Msg> {
    const i = this.inbox.findIndex(match);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = { pred: match, resolve: resolve as (m: Msg) => void };
      this.waiters.push(waiter);
      setTimeout(() => {
        const k = this.waiters.indexOf(waiter);
        if (k >= 0) {
          this.waiters.splice(k, 1);
          reject(new Error(`no '${what}' message within ${timeoutMs} ms; inbox: ${JSON.stringify(this.inbox.slice(-5))}`));
        }
      }, timeoutMs).unref();
    });
  }

  close(): void {
    this.ws.close();
  }
}

export type LiveGameOptions = {
  mode: Mode;
  handling?: Handling;
  nextCount?: number;
  /** Stop placing pieces after this many (gravity then tops the game out). */
  maxPieces?: number;
  /** Ticks per piece on average (20 ≈ 3 pieces a second). */
  ticksPerPiece?: number;
  seed?: number;
  /** Called after every batch with its round trip (send → ack) in ms. */
  onAck?: (ms: number) => void;
  /** Called with the ms from sending a batch that used up a piece to receiving the deal that replaces it. */
  onDeal?: (ms: number) => void;
  /** Lets a test tamper with a batch before it is sent. */
  tamper?: (batch: Extract<ClientMessage, { t: 'inputs' }>) => void;
  /** Called once the game started, before the first tick (invariant checks read run.game). */
  onStart?: (run: LiveGameRun) => void;
  /** Fixed key events by game tick, played instead of the bot (e.g. an inhumanly even rhythm). */
  script?: ReadonlyArray<{ tick: number; key: Key; down: boolean }>;
  /** Stop after this many batches without ending the game (reconnect tests). */
  stopAfterBatches?: number;
  /** Where in each 100 ms this bot's batches leave (BatchClock); the bench spreads its bots over it. */
  phaseMs?: number;
};

export type LiveGameRun = {
  gameId: string;
  game: DealtGame;
  over: Extract<ServerMessage, { t: 'over' }> | null;
  /** The seeded replay, built after the seed was revealed (what the browser POSTs). */
  encoded: string | null;
  seq: number;
  resumeToken: string;
};

const HANDLING: Handling = { das: 10, arr: 2, sdf: 20, dasCut: false };
const ROTS: Rotation[] = ['0', 'R', '2', 'L'];
const ROTATE_KEYS: Array<Key | null> = [null, 'rotateCW', 'rotate180', 'rotateCCW'];
const FULL_ROW = (1 << 10) - 1;
const DOT = '.'.charCodeAt(0);

/** Each piece's cells at the origin, by rotation index (ROTS): looked up, not built per candidate. */
const SHAPES = new Map<string, Array<Array<[number, number]>>>();
const shapesOf = (type: PieceType) => {
  let shapes = SHAPES.get(type);
  if (!shapes) SHAPES.set(type, (shapes = ROTS.map((rotation) => placedCells({ type, rotation, x: 0, y: 0 }))));
  return shapes;
};
/**
 * The planner's scratch rows and heights, reused by every evaluation: a thousand bots plan
 * thousands of pieces a second in one process, and their garbage was the load generator's own
 * collector pauses, a share of the latencies it measures.
 */
const after = new Int32Array(64);
const heights = new Int32Array(10);

/** Each column's height into `heights`: one above its highest filled cell (`n` rows of `rows`, bottom first, as 10-bit masks). */
function columnHeights(rows: ArrayLike<number>, n: number): void {
  for (let c = 0; c < 10; c++) {
    heights[c] = 0;
    for (let i = n - 1; i >= 0; i--) if (rows[i]! & (1 << c)) {
      heights[c] = i + 1;
      break;
    }
  }
}

/** Starts a game over the client and plays it to its end at real pace. */
export async function playLive(client: LiveClient, o: LiveGameOptions): Promise<LiveGameRun> {
  const nextCount = o.nextCount ?? 5;
  client.send({ t: 'start', mode: o.mode, handling: o.handling ?? HANDLING, nextCount });
  const started = await client.next('started');
  const game = createDealtGame({ mode: o.mode, handling: o.handling ?? HANDLING, nextCount, ...(started.holes ? { holes: started.holes } : {}) }, started.pieces);
  const run: LiveGameRun = { gameId: started.gameId, game, over: null, encoded: null, seq: 0, resumeToken: started.resumeToken };
  o.onStart?.(run);
  await continueLive(client, run, o);
  return run;
}

/** Plays an already started (or resumed) game on; resolves at game over or after stopAfterBatches. */
export async function continueLive(client: LiveClient, run: LiveGameRun, o: LiveGameOptions): Promise<void> {
  const { game } = run;
  let rand = (o.seed ?? 1) >>> 0;
  const random = (): number => ((rand = (Math.imul(rand, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const perPiece = o.ticksPerPiece ?? 20;
  const plan: Array<{ tick: number; key: Key; down: boolean }> = [];
  let plannedFor = -1;
  const sentAt = new Map<number, number>();
  // The server answers a batch with its ack, then (if the batch used up a piece) a deal.
  let ackedBatchSentAt: number | null = null;
  /** True for this game's deals and acks: handled here, not kept in the inbox. */
  const onMsg = (m: ServerMessage): boolean => {
    if (m.t === 'deal' && m.stream === run.gameId) {
      game.deal(m.from, m.pieces);
      if (m.holes) game.dealHoles(m.holes.from, m.holes.columns);
      if (ackedBatchSentAt !== null) o.onDeal?.(performance.now() - ackedBatchSentAt);
      ackedBatchSentAt = null;
      return true;
    }
    if (m.t === 'ack' && m.stream === run.gameId) {
      const t = sentAt.get(m.seq);
      if (t !== undefined) o.onAck?.(performance.now() - t);
      ackedBatchSentAt = t ?? null;
      sentAt.delete(m.seq);
      return true;
    }
    return false;
  };
  const previous = client.onMessage;
  client.onMessage = (m) => {
    const theirs = previous?.(m) === true;
    return onMsg(m) || theirs;
  };
  for (const m of client.inbox.filter((x) => x.t === 'deal')) onMsg(m);
  const t0 = performance.now() - (game.snapshot().tick * 1000) / TICKS_PER_SECOND;
  let logged = game.inputs.length;
  let batches = 0;
  const overP = client.next('over', (m) => m.gameId === run.gameId, 3_600_000);
  let tick = game.snapshot().tick;
  let placed = 0;
  const clock = new BatchClock(o.phaseMs);
  while (!game.over) {
    await new Promise((r) => setTimeout(r, clock.next()));
    const target = Math.floor(((performance.now() - t0) * TICKS_PER_SECOND) / 1000);
    while (tick < target && !game.over) {
      if (!game.ready) break;
      if (o.script) {
        if (plannedFor === -1) plan.push(...o.script.filter((e) => e.tick >= tick));
        plannedFor = 0;
      } else if (game.taken !== plannedFor) {
        // Snapshots are for planning only (once a piece): the load generator runs many games.
        plannedFor = game.taken;
        placed++;
        // Releases still due from the last piece stay (a key left down would swallow the next press).
        const releases = plan.filter((e) => !e.down);
        plan.length = 0;
        plan.push(...releases);
        const from = Math.max(tick, ...releases.map((e) => e.tick));
        // Past maxPieces every piece is dropped where it spawns, so the game tops out in seconds.
        if (o.maxPieces !== undefined && placed > o.maxPieces) plan.push({ tick: from + 3, key: 'hardDrop', down: true }, { tick: from + 6, key: 'hardDrop', down: false });
        // Dig needs the test bot's search (holds, a better eye for holes); the quick one is for load.
        else plan.push(...(cheeseOf(MODES[o.mode]) ? planDig(game, from, o.handling ?? HANDLING, random) : planPiece(game, from, perPiece, random)));
        plan.sort((a, b) => a.tick - b.tick);
      }
      const inputs: InputEvent[] = [];
      while (plan.length > 0 && plan[0]!.tick <= tick) inputs.push(plan.shift()!);
      game.tick(inputs);
      tick++;
    }
    // The log itself, not replay(): that copies every event of the game, each batch.
    const events = game.inputs.slice(logged);
    logged += events.length;
    const batch = { t: 'inputs' as const, stream: run.gameId, seq: ++run.seq, tick, events: events.map(toWireEvent), hash: game.playHash() };
    o.tamper?.(batch);
    sentAt.set(batch.seq, performance.now());
    client.send(batch);
    if (o.stopAfterBatches !== undefined && ++batches >= o.stopAfterBatches) {
      client.onMessage = previous;
      return;
    }
  }
  run.over = await overP;
  client.onMessage = previous;
  game.reveal(run.over.seed);
  run.encoded = encodeReplay(game.replay());
}

/**
 * One piece: pick the placement a well-known line-clearing evaluation likes best (aggregate height,
 * cleared lines, holes and bumpiness after the drop, weighed as in Yiyuan Lee's well-known
 * genetically tuned bot; cheap enough for a thousand bots in one process), then press rotate, taps and hard drop
 * with 2–5 tick holds and jittered gaps. Ranked tests need a Sprint that reaches 40 lines on every
 * seed: judging heights alone, without the rows a drop clears, topped out now and then.
 */
function planPiece(game: DealtGame, start: number, perPiece: number, random: () => number): Array<{ tick: number; key: Key; down: boolean }> {
  const snap = game.snapshot();
  if (!snap.active) return [];
  // Rows as 10-bit masks, bottom row first (y up, as placedCells gives cells).
  const rows: number[] = [];
  for (let i = snap.board.length - 1; i >= 0; i--) {
    const row = snap.board[i]!;
    let mask = 0;
    for (let x = 0; x < row.length; x++) if (row.charCodeAt(x) !== DOT) mask |= 1 << x;
    rows.push(mask);
  }
  // Empty rows on top cost every evaluation a scan (a bot's stack stays low).
  while (rows.length > 0 && rows[rows.length - 1] === 0) rows.pop();
  columnHeights(rows, rows.length);
  const stack = Int32Array.from(heights);
  let best = { score: Infinity, rot: 0, x: snap.active.x };
  const shapes = shapesOf(snap.active.type);
  for (let r = 0; r < 4; r++) {
    const shape = shapes[r]!;
    for (let x = -2; x < 12; x++) {
      if (shape.some(([dx]) => x + dx < 0 || x + dx > 9)) continue;
      let y = -Infinity;
      for (const [dx, dy] of shape) y = Math.max(y, stack[x + dx]! - dy);
      // The rows after the drop: the stack, the piece's cells (at most 4 rows above it), the full rows taken out.
      let n = rows.length;
      after.set(rows);
      after.fill(0, n, n + 8);
      for (const [dx, dy] of shape) {
        n = Math.max(n, y + dy + 1);
        after[y + dy]! |= 1 << (x + dx);
      }
      let kept = 0;
      for (let i = 0; i < n; i++) if (after[i] !== FULL_ROW) after[kept++] = after[i]!;
      const lines = n - kept;
      let above = 0;
      for (let i = 20; i < kept; i++) if (after[i]) above++;
      columnHeights(after, kept);
      let holes = 0;
      for (let c = 0; c < 10; c++) for (let i = 0; i < heights[c]!; i++) if (!(after[i]! & (1 << c))) holes++;
      let bump = 0;
      for (let c = 1; c < 10; c++) bump += Math.abs(heights[c]! - heights[c - 1]!);
      let height = 0;
      for (let c = 0; c < 10; c++) height += heights[c]!;
      const score = 0.51 * height - 0.76 * lines + 0.36 * holes + 0.18 * bump + above * 100 + random() * 0.01;
      if (score < best.score) best = { score, rot: r, x };
    }
  }
  const out: Array<{ tick: number; key: Key; down: boolean }> = [];
  let t = start + 1 + Math.floor(random() * Math.max(1, perPiece - 12));
  const press = (key: Key): void => {
    const hold = 2 + Math.floor(random() * 4);
    out.push({ tick: t, key, down: true }, { tick: t + hold, key, down: false });
    t += hold + 1 + Math.floor(random() * 3);
  };
  const rotate = ROTATE_KEYS[best.rot];
  if (rotate) press(rotate);
  const dx = best.x - snap.active.x;
  for (let i = 0; i < Math.abs(dx); i++) press(dx < 0 ? 'left' : 'right');
  press('hardDrop');
  return out;
}

const TURNS: Array<Key | null> = [null, 'rotateCW', 'rotate180', 'rotateCCW'];

/**
 * One piece planned by the test bot's search (lib/bot/search.ts) on the field as the
 * player sees it, holding when that is clearly better: what digs a Dig out in a few dozen pieces.
 */
function planDig(game: DealtGame, start: number, handling: Handling, random: () => number): Array<{ tick: number; key: Key; down: boolean }> {
  const snap = game.snapshot();
  const a = snap.active;
  if (!a) return [];
  const board = bitboardOf(snap.board);
  const piece = PIECES.indexOf(a.type);
  let pick = best(candidates(board, piece, ROTATIONS.indexOf(a.rotation), a.x, a.y));
  let hold = false;
  const other = snap.hold ?? snap.next[0];
  if (!snap.holdUsed && other && other !== a.type) {
    const id = PIECES.indexOf(other);
    const alt = best(candidates(board, id, 0, 4, collides(board, id * 4, 4, 19) ? 20 : 19));
    if (alt && (!pick || alt.score > pick.score + 1)) {
      pick = alt;
      hold = true;
    }
  }
  const out: Array<{ tick: number; key: Key; down: boolean }> = [];
  let t = start + 1;
  const press = (key: Key, ticks = 2 + Math.floor(random() * 2)): void => {
    out.push({ tick: t, key, down: true }, { tick: t + ticks, key, down: false });
    t += ticks + 1 + Math.floor(random() * 2);
  };
  // After a hold into an empty slot the next piece is taken, and planned afresh (continueLive).
  if (hold) press('hold');
  if (!pick) return out;
  const turn = TURNS[pick.turn];
  if (turn) press(turn);
  const s = pick.shift;
  const dir = s && s.dir < 0 ? 'left' : 'right';
  // Held to the wall: DAS, then auto-repeat over the six columns at most a spawned piece is from it.
  if (s && 'wall' in s) press(dir, handling.das + Math.max(1, handling.arr) * 6 + 1);
  else if (s) for (let i = 0; i < s.taps; i++) press(dir);
  press('hardDrop');
  return out;
}

