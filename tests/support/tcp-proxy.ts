import net from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that a test can cut: `cut()` drops every open connection
 * mid-query and refuses new ones (the port is closed), exactly what the app sees when the
 * database server stops; `restore()` listens again on the same port. Stopping the machine's
 * real PostgreSQL would also break every other suite using it at the same time.
 *
 * `stall()` first holds back everything the app sends, so queries wait unanswered: a test can
 * then see that requests really are in the middle of their queries (`held()`) when it cuts.
 */
export type TcpProxy = {
  port: number;
  stall(): void;
  /** Connections whose queries are held back by `stall()`. */
  held(): number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const holding = new Set<net.Socket>();
  let stalled = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.on('data', (chunk) => {
      if (!stalled) upstream.write(chunk);
      else holding.add(client);
    });
    upstream.pipe(client);
    client.on('close', () => {
      holding.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });
  const port = await listen(0);
  const stop = () => new Promise<void>((resolve) => {
    stalled = false;
    holding.clear();
    if (!server.listening) return resolve();
    server.close(() => resolve());
    for (const s of sockets) s.destroy();
  });
  return { port, stall: () => void (stalled = true), held: () => holding.size, cut: stop, restore: async () => void (await listen(port)), close: stop };
}
