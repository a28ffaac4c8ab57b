import { isRoomServerMessage } from '@/lib/live/rooms';
import { isTeamServerMessage } from '@/lib/live/teams';
import type { GameEvent, Mode, Snapshot } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import type { LivePlayer, LiveStats } from '@/lib/live/wire';
import { SpectatorFeed } from '@/lib/client/live/spectator';
import { WatchRetry } from '@/lib/client/live/watch-retry';
import { watchingSocket, type LinkState, type LiveSocket, type SocketFactory } from '@/lib/client/live/socket';

/** What the spectator page shows around the field. */
export type WatchView =
  | { phase: 'connecting'; link: LinkState }
  | { phase: 'watching'; link: LinkState; player: LivePlayer; mode: Mode; stats: LiveStats; spectators: number; paused: boolean }
  | { phase: 'ended'; link: LinkState; player: LivePlayer | null; mode: Mode | null; stats: LiveStats; replayId: string | null }
  | { phase: 'missing'; link: LinkState; message: string };

export interface WatchHost {
  draw(snapshot: Snapshot, events: readonly GameEvent[], hidden: boolean, mode: Mode, now: number): void;
  onView(view: WatchView): void;
}

/**
 * The spectator page's life: connects, asks to watch one game, re-runs it from the stream
 * (SpectatorFeed) every animation frame, and reports when it ends and where its replay is.
 * A dropped connection dials again and asks to watch again; the server then sends the game as
 * it is now (a state and the inputs since), so the field carries on from there.
 */
export class WatchController {
  private readonly socket: LiveSocket;
  private feed: SpectatorFeed | null = null;
  private view: WatchView = { phase: 'connecting', link: 'down' };
  private raf = 0;
  private readonly retry = new WatchRetry();

  constructor(
    private readonly gameId: string,
    private readonly host: WatchHost,
    connect?: SocketFactory,
  ) {
    this.socket = watchingSocket({ connect, onMessage: (m) => this.onMessage(m), onState: (link) => this.set({ ...this.view, link }) });
    this.socket.open();
  }

  private set(view: WatchView): void {
    this.view = view;
    this.host.onView(view);
  }

  private onMessage(m: ServerMessage): void {
    const v = this.view;
    if (isRoomServerMessage(m)) return; // a live room's (lib/live/rooms.ts): no page plays rooms yet
    if (isTeamServerMessage(m)) return; // the ranked 2v2 queue's (lib/live/teams.ts): the versus page's queue control reads them
    switch (m.t) {
      case 'welcome':
        if (v.phase !== 'ended') this.socket.send({ t: 'watch', of: { kind: 'game', id: this.gameId } });
        return;
      case 'watching':
        if (m.gameId !== this.gameId) return;
        this.feed = new SpectatorFeed(m);
        this.set({ phase: 'watching', link: v.link, player: m.player, mode: m.mode, stats: m.stats, spectators: m.spectators, paused: m.paused });
        this.loop();
        return;
      case 'frame':
        if (m.gameId !== this.gameId || !this.feed || v.phase !== 'watching') return;
        this.feed.push(m);
        this.set({ ...v, stats: m.stats, paused: m.paused });
        return;
      case 'status':
        if (m.gameId === this.gameId && v.phase === 'watching') this.set({ ...v, spectators: m.spectators });
        return;
      case 'ended':
        if (m.gameId !== this.gameId) return;
        // The rest of the game is drawn at once: the final board stays on the page.
        if (this.feed) this.draw(this.feed.runTo(Number.MAX_SAFE_INTEGER), performance.now());
        this.set({
          phase: 'ended', link: v.link, stats: m.stats, replayId: m.replayId ?? null,
          player: v.phase === 'watching' ? v.player : null, mode: v.phase === 'watching' ? v.mode : null,
        });
        return;
      case 'error':
        if (v.phase === 'ended' || (m.gameId && m.gameId !== this.gameId)) return;
        if (m.code === 'unknown_game' || m.code === 'not_live' || m.code === 'game_over') this.set({ phase: 'missing', link: v.link, message: m.message });
        else if (m.code === 'rate_limited' && m.gameId === this.gameId) {
          this.retry.later(() => {
            if (this.view.phase !== 'ended') this.socket.send({ t: 'watch', of: { kind: 'game', id: this.gameId } });
          });
        }
        return;
      case 'started':
      case 'resumed':
      case 'deal':
      case 'ack':
      case 'over':
      case 'pong':
      case 'queued':
      case 'unqueued':
      case 'room':
      case 'room_closed':
      case 'rematch_state':
      case 'rematch_over':
      case 'match':
      case 'vstart':
      case 'garbage':
      case 'vframe':
      case 'vgame':
      case 'vover':
      case 'vaway':
      case 'vresumed':
      case 'vwatching':
        return; // the player's, a match's, or the socket's own
      default:
        m satisfies never;
    }
  }

  private loop(): void {
    if (this.raf) return;
    const frame = (now: number) => {
      this.raf = 0;
      const feed = this.feed;
      if (!feed || this.view.phase !== 'watching') return;
      this.draw(feed.advance(now), now);
      this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  private draw(events: readonly GameEvent[], now: number): void {
    const v = this.view;
    const mode = v.phase === 'watching' || v.phase === 'ended' ? v.mode : null;
    if (this.feed && mode) this.host.draw(this.feed.snapshot(), events, v.phase === 'watching' && v.paused, mode, now);
  }

  dispose(): void {
    this.retry.cancel();
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.socket.close();
  }
}
