import { isRoomServerMessage } from '@/lib/live/rooms';
import { isTeamServerMessage } from '@/lib/live/teams';
import type { GameEvent, Snapshot, VersusMode } from '@/lib/engine';
import type { ServerMessage } from '@/lib/live/protocol';
import type { LivePlayer } from '@/lib/live/wire';
import type { Seat } from '@/lib/live/versus';
import { SpectatorFeed } from '@/lib/client/live/spectator';
import { WatchRetry } from '@/lib/client/live/watch-retry';
import { watchingSocket, type LinkState, type LiveSocket, type SocketFactory } from '@/lib/client/live/socket';

/** What the match spectator page shows around the two fields. */
export type MatchWatchView = {
  link: LinkState;
  phase: 'connecting' | 'watching' | 'between' | 'over' | 'missing';
  mode: VersusMode | null;
  players: [LivePlayer, LivePlayer] | null;
  score: [number, number];
  firstTo: number;
  game: number;
  meters: [number, number];
  /** The last game decided, or the match's end. */
  winner: Seat | null;
  stored: boolean;
  message: string | null;
};

export interface MatchWatchHost {
  draw(snaps: [Snapshot, Snapshot], events: [readonly GameEvent[], readonly GameEvent[]], mode: VersusMode, now: number): void;
  onView(view: MatchWatchView): void;
}

/**
 * Watching a versus match: both seats re-run from their streams (a SpectatorFeed each, with the
 * garbage that joined each queue), a few hundred ms behind the players. Every game of the set
 * starts with `vwatching` (both seats from tick 0), as does a reconnect.
 */
export class MatchWatchController {
  private readonly socket: LiveSocket;
  private feeds: [SpectatorFeed, SpectatorFeed] | null = null;
  private game = -1;
  private view: MatchWatchView = { link: 'down', phase: 'connecting', mode: null, players: null, score: [0, 0], firstTo: 1, game: 0, meters: [0, 0], winner: null, stored: false, message: null };
  private raf = 0;
  private readonly retry = new WatchRetry();
  /** A `watch` sent and its catch-up not come yet: a refusal for a crowd's sake is asked again (a reconnect mid-match too). */
  private awaiting = false;

  constructor(
    private readonly matchId: string,
    private readonly host: MatchWatchHost,
    connect?: SocketFactory,
  ) {
    this.socket = watchingSocket({ connect, onMessage: (m) => this.onMessage(m), onState: (link) => this.set({ link }) });
    this.socket.open();
  }

  private set(patch: Partial<MatchWatchView>): void {
    this.view = { ...this.view, ...patch };
    this.host.onView(this.view);
  }

  private onMessage(m: ServerMessage): void {
    if ('matchId' in m && m.matchId !== this.matchId) return;
    if (isRoomServerMessage(m)) return; // a live room's (lib/live/rooms.ts): no page plays rooms yet
    if (isTeamServerMessage(m)) return; // the ranked 2v2 queue's (lib/live/teams.ts): the versus page's queue control reads them
    switch (m.t) {
      case 'welcome':
        if (this.view.phase !== 'over') this.ask();
        return;
      case 'vwatching':
        this.awaiting = false;
        this.game = m.game;
        this.feeds = [0, 1].map((s) => new SpectatorFeed({ mode: m.mode, rulesVersion: m.rulesVersion, handling: m.handling[s]!, nextCount: m.nextCount, ...m.seats[s]!, paused: false })) as [SpectatorFeed, SpectatorFeed];
        this.set({ phase: 'watching', mode: m.mode, players: [m.seats[0].player, m.seats[1].player], score: m.score, firstTo: m.firstTo, game: m.game, winner: null });
        this.loop();
        return;
      case 'vframe': {
        if (!this.feeds || m.game !== this.game) return;
        // Pieces are shared by both seats of a game: each frame carries the next ones for both.
        for (const f of this.feeds) f.push({ from: m.from, pieces: m.pieces, events: [], tick: 0 });
        this.feeds[m.seat].push(m);
        const meters: [number, number] = [...this.view.meters];
        meters[m.seat] = m.meter;
        this.set({ meters });
        return;
      }
      case 'vgame':
        if (m.game !== this.game) return;
        for (const f of this.feeds ?? []) f.push({ from: m.from, pieces: m.pieces, events: [], tick: 0 });
        this.finishFeeds(m.ticks);
        this.set({ phase: 'between', score: m.score, winner: m.winner });
        return;
      case 'vover':
        this.set({ phase: 'over', score: m.score, winner: m.winner, stored: m.stored });
        return;
      case 'error':
        if (m.gameId !== this.matchId) return;
        if (m.code === 'unknown_match') this.set({ phase: this.view.phase === 'connecting' ? 'missing' : 'over', message: m.message });
        // A crowd arriving (the match's catch-ups a second) or this socket's own budget: asked again a little later.
        else if (m.code === 'rate_limited') {
          this.retry.later(() => {
            if (this.awaiting && this.view.phase !== 'over' && this.view.phase !== 'missing') this.ask();
          });
        }
        return;
      case 'started':
      case 'resumed':
      case 'deal':
      case 'ack':
      case 'status':
      case 'over':
      case 'watching':
      case 'frame':
      case 'ended':
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
      case 'vaway':
      case 'vresumed':
        return; // a player's (solo or in the match), the lobby's, or the socket's own
      default:
        m satisfies never;
    }
  }

  private ask(): void {
    this.awaiting = true;
    this.socket.send({ t: 'watch', of: { kind: 'match', id: this.matchId } });
  }

  /** A game was decided: both fields at once to the ticks where it was. */
  private finishFeeds(ticks: [number, number]): void {
    if (!this.feeds || !this.view.mode) return;
    const events = this.feeds.map((f, s) => f.runTo(ticks[s]!)) as [GameEvent[], GameEvent[]];
    this.host.draw([this.feeds[0].snapshot(), this.feeds[1].snapshot()], events, this.view.mode, performance.now());
  }

  private loop(): void {
    if (this.raf) return;
    const frame = (now: number) => {
      this.raf = 0;
      const feeds = this.feeds;
      const mode = this.view.mode;
      if (!feeds || !mode || this.view.phase !== 'watching') return;
      const events = feeds.map((f) => f.advance(now)) as [GameEvent[], GameEvent[]];
      this.host.draw([feeds[0].snapshot(), feeds[1].snapshot()], events, mode, now);
      this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  dispose(): void {
    this.retry.cancel();
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.socket.close();
  }
}
