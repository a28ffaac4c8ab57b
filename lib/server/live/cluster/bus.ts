import 'server-only';
import type { LiveGameSummary, ServerMessage } from '@/lib/live/protocol';
import type { LiveMatchSummary } from '@/lib/live/versus';

/**
 * Who hears about live games: spectators of one game, and the "Live now" list. In-process here;
 * redis-bus.ts is the same interface across several instances (when REDIS_URL is set).
 */
export interface LiveBus {
  publish(gameId: string, message: ServerMessage): void;
  /** Returns the unsubscribe function. */
  subscribe(gameId: string, listener: (message: ServerMessage) => void): () => void;
  subscribers(gameId: string): number;
  announce(summary: LiveGameSummary): void;
  withdraw(gameId: string): void;
  list(): LiveGameSummary[];
  /** Versus matches, listed beside the solo games ("Live now"); spectators subscribe by match id. */
  announceMatch(summary: LiveMatchSummary): void;
  withdrawMatch(matchId: string): void;
  listMatches(): LiveMatchSummary[];
}

export function createLocalBus(): LiveBus {
  const listeners = new Map<string, Set<(message: ServerMessage) => void>>();
  const games = new Map<string, LiveGameSummary>();
  const matches = new Map<string, LiveMatchSummary>();
  return {
    publish(gameId, message) {
      for (const listener of listeners.get(gameId) ?? []) listener(message);
    },
    subscribe(gameId, listener) {
      const set = listeners.get(gameId) ?? new Set();
      listeners.set(gameId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(gameId);
      };
    },
    subscribers: (gameId) => listeners.get(gameId)?.size ?? 0,
    announce(summary) {
      games.set(summary.gameId, summary);
    },
    withdraw(gameId) {
      games.delete(gameId);
    },
    list: () => [...games.values()].sort(byInterest),
    announceMatch(summary) {
      matches.set(summary.matchId, summary);
    },
    withdrawMatch(matchId) {
      matches.delete(matchId);
    },
    listMatches: () => [...matches.values()].sort(byInterest),
  };
}

/** "Live now" order: most watched first, then the longest running. */
export const byInterest = (a: { spectators: number; startedAt: string }, b: { spectators: number; startedAt: string }): number => b.spectators - a.spectators || a.startedAt.localeCompare(b.startedAt);
