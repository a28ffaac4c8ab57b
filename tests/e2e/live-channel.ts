import type { Page, WebSocketRoute } from '@playwright/test';

/**
 * The page's live sockets, connected to the real server, and a switch that drops them all.
 * Playwright's offline mode leaves WebSockets open, so the drop is made by hand: the server sees
 * its socket close, the page sees its own close, and every new attempt fails until `restore()`.
 */
export async function cuttableLiveChannel(page: Page): Promise<{ cut(): Promise<void>; restore(): void }> {
  let down = false;
  const open = new Set<WebSocketRoute>();
  await page.routeWebSocket(/\/api\/live(\?|$)/, (ws) => {
    if (down) {
      // Not connected to the server: the page's attempt opens and is closed at once, like a refused dial.
      void ws.close({ code: 4000, reason: 'network down' });
      return;
    }
    const server = ws.connectToServer();
    open.add(server);
    server.onClose(() => open.delete(server));
  });
  return {
    async cut() {
      down = true;
      await Promise.all([...open].map((server) => server.close()));
    },
    restore() {
      down = false;
    },
  };
}
