import { LIVE_BUNDLES_PARAM, LIVE_PATH, LIVE_PROTOCOL_VERSION, messagesOfFrame, parseServerMessage, type ClientMessage, type ServerMessage } from '@/lib/live/protocol';

/** The parts of the browser's WebSocket this uses (Node's `ws` has the same), so tests run it against a real server. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}
export type SocketFactory = (url: string) => SocketLike;

/** `outdated`: the server speaks another protocol version (a deploy): dialling again cannot help, the page must reload. */
export type LinkState = 'connecting' | 'open' | 'down' | 'outdated';

/** What a page says about its link, or null while all is well. */
export function linkTrouble(link: LinkState): string | null {
  switch (link) {
    case 'open':
      return null;
    case 'connecting':
      return 'Connecting…';
    case 'down':
      return 'Connection lost, reconnecting…';
    case 'outdated':
      return 'Linefall was updated: reload the page to play on.';
    default:
      return link satisfies never;
  }
}

export interface LiveSocketOptions {
  url: string;
  /** The first messages of every connection: hello, then the resume of a game on (one flight, no round trip between). */
  hello: () => ClientMessage | readonly ClientMessage[];
  onMessage: (message: ServerMessage) => void;
  onState: (state: LinkState) => void;
  connect?: SocketFactory;
  /** A ping this often while open; browsers cannot send protocol pings, so it is a message. */
  heartbeatMs?: number;
  /** No message at all for this long and the connection counts as dead: closed and dialled again. */
  deadAfterMs?: number;
  /** Reconnect delays: the first, doubled per failure up to the last (with jitter). */
  backoffMs?: readonly [number, number];
  /** The server speaks another protocol version; default: reload the page (at most once a minute). */
  onOutdated?: () => void;
}

const OPEN = 1;

/**
 * One live connection that stays up: dials, sends hello first, pings, notices a connection that
 * went silent (a dropped network closes nothing by itself), and dials again with backoff until
 * closed. Messages sent while it is down are refused (`send` returns false): what must survive a
 * drop (input batches) is kept and sent again by its owner after the next hello.
 */
export class LiveSocket {
  private ws: SocketLike | null = null;
  private state: LinkState = 'down';
  private closed = false;
  private failures = 0;
  private lastHeard = 0;
  private pings = 0;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private redial: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: LiveSocketOptions) {}

  get link(): LinkState {
    return this.state;
  }

  open(): void {
    if (this.closed || this.ws) return;
    this.setState('connecting');
    let ws: SocketLike;
    try {
      ws = (this.opts.connect ?? ((url) => new WebSocket(url) as unknown as SocketLike))(this.opts.url);
    } catch {
      this.scheduleRedial();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      const first = this.opts.hello();
      for (const m of Array.isArray(first) ? first : [first]) ws.send(JSON.stringify(m));
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws || typeof ev.data !== 'string') return;
      this.lastHeard = Date.now();
      for (const value of messagesOfFrame(ev.data)) {
        // Parsed with the schemas the server builds its messages to: a handler never sees a shape
        // it was not written for (a server of another version, a proxy's page), only what it reads.
        const parsed = parseServerMessage(value);
        if (!parsed.ok) {
          console.error(`[live] a message from the server could not be read: ${parsed.message}`);
          continue;
        }
        const message = parsed.message;
        // Refused at the hello: this page's code is older (or newer) than the server's.
        if (message.t === 'error' && message.code === 'unsupported_version') return this.outdated();
        if (message.t === 'welcome') {
          this.failures = 0;
          this.setState('open');
          this.startHeartbeat(ws);
        }
        try {
          if (message.t !== 'pong') this.opts.onMessage(message);
        } catch (error) {
          // One message's failure must not drop the rest of its bundle.
          console.error('[live] a message could not be handled:', error);
        }
        // A message handled above may have replaced this socket (a redial): the rest was for the old one.
        if (this.ws !== ws) return;
      }
    };
    ws.onerror = () => {};
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.drop();
    };
  }

  private startHeartbeat(ws: SocketLike): void {
    this.stopHeartbeat();
    const every = this.opts.heartbeatMs ?? 2_000;
    const dead = this.opts.deadAfterMs ?? 6_000;
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastHeard > dead) {
        // Silent for too long: the network is gone even if the socket has not noticed yet.
        this.drop();
        return;
      }
      if (ws.readyState === OPEN) ws.send(JSON.stringify({ t: 'ping', n: ++this.pings }));
    }, every);
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Stops for good (the server will refuse every hello of this code) and lets the page reload. */
  private outdated(): void {
    this.shut();
    this.setState('outdated');
    (this.opts.onOutdated ?? reloadOnce)();
  }

  /** Forgets this connection and dials again, as a dropped one is: its owner could not go on with it. */
  dialAgain(): void {
    if (!this.closed) this.drop();
  }

  /** Forgets the current connection and dials again (unless closed). */
  private drop(): void {
    const ws = this.ws;
    this.ws = null;
    this.stopHeartbeat();
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      try {
        ws.close();
      } catch {
        // Already closing.
      }
    }
    this.setState('down');
    if (!this.closed) this.scheduleRedial();
  }

  private scheduleRedial(): void {
    const [first, last] = this.opts.backoffMs ?? [250, 4_000];
    const base = Math.min(last, first * 2 ** this.failures++);
    // Jitter, so every page of a restarted server does not dial back in the same millisecond.
    const delay = base * (0.75 + Math.random() * 0.5);
    this.redial = setTimeout(() => {
      this.redial = null;
      this.open();
    }, delay);
  }

  private setState(state: LinkState): void {
    if (state === this.state) return;
    this.state = state;
    this.opts.onState(state);
  }

  /** Sends now if the connection is open (after its welcome); false if it is not. */
  send(message: ClientMessage): boolean {
    const ws = this.ws;
    if (!ws || this.state !== 'open' || ws.readyState !== OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  }

  /** Closes for good: no more dialling. */
  close(): void {
    this.shut();
    this.setState('down');
  }

  private shut(): void {
    this.closed = true;
    if (this.redial) clearTimeout(this.redial);
    this.redial = null;
    const ws = this.ws;
    this.ws = null;
    this.stopHeartbeat();
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.close(1000);
    }
  }
}

const RELOADED_AT = 'linefall:live-reloaded-at';

/**
 * Reloads the page for the server's new code, once a minute at most: during a deploy an old
 * instance may still answer, and a page that reloaded into it must not reload again and again.
 */
function reloadOnce(): void {
  try {
    const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
    if (Date.now() - last < 60_000) return;
    sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  } catch {
    // No storage (a privacy mode): reload all the same.
  }
  location.reload();
}

/** The live channel's address on this page's origin (ws: on http, wss: on https); this client reads bundled frames. */
export function liveUrl(location: { protocol: string; host: string }, path: string): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${path}?${LIVE_BUNDLES_PARAM}=1`;
}

/** A connection on this page's origin that plays nothing (spectators): its hello takes no game up. */
export function watchingSocket(o: Pick<LiveSocketOptions, 'connect' | 'onMessage' | 'onState'>): LiveSocket {
  return new LiveSocket({ ...o, url: liveUrl(location, LIVE_PATH), hello: () => ({ t: 'hello', v: LIVE_PROTOCOL_VERSION }) });
}
