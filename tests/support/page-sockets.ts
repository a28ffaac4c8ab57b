import type { ClientMessage, ServerMessage } from '@/lib/live/protocol';
import type { SocketLike } from '@/lib/client/live/socket';

/**
 * The sockets a browser session dials, each open at once and keeping what the page sent; `hear`
 * plays the server on the newest, and closing one makes the session dial again as a dropped link does.
 */
export function pageSockets() {
  const sent: ClientMessage[] = [];
  const sockets: SocketLike[] = [];
  const connect = (): SocketLike => {
    const ws: SocketLike = { readyState: 1, send: (d) => void sent.push(JSON.parse(d)), close: () => ws.onclose?.({}), onopen: null, onclose: null, onerror: null, onmessage: null };
    sockets.push(ws);
    queueMicrotask(() => ws.onopen?.({}));
    return ws;
  };
  const hear = (m: ServerMessage) => sockets.at(-1)!.onmessage!({ data: JSON.stringify(m) });
  return { sent, sockets, connect, hear };
}
