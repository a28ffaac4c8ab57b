import { submitReplay, type FetchLike, type Outcome, type Submission } from '@/lib/client/api';

/** The part of Storage we use, so tests can pass a Map-backed one. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const PENDING_KEY = 'linefall:pending-games:v1';
const MAX_PENDING = 50;
/** Told (through onSettled) for a queued game dropped because its ticket expired. */
export const EXPIRED_MESSAGE = 'This game expired before the server could take it, so it was removed from this device.';

export interface PendingGame extends Submission {
  finishedAt: number;
  attempts: number;
  lastError?: string;
  /** The server asked for no retry before this time (Retry-After). */
  notBefore?: number;
}

function isPending(v: unknown): v is PendingGame {
  const p = v as Partial<PendingGame> | null;
  return (
    typeof p === 'object' && p !== null && typeof p.gameId === 'string' && typeof p.replay === 'string' &&
    typeof p.mode === 'string' && typeof p.finishedAt === 'number' && typeof p.claimed === 'object' && p.claimed !== null &&
    (p.expiresAt === undefined || typeof p.expiresAt === 'string')
  );
}

export function readPending(store: KeyValueStore): PendingGame[] {
  try {
    const raw: unknown = JSON.parse(store.getItem(PENDING_KEY) ?? '[]');
    return Array.isArray(raw) ? raw.filter(isPending) : [];
  } catch {
    return [];
  }
}

function writePending(store: KeyValueStore, games: PendingGame[]): void {
  store.setItem(PENDING_KEY, JSON.stringify(games.slice(-MAX_PENDING)));
}

/** Saved before the first attempt: a game that finished is on disk before anything can fail. */
export function keepPending(store: KeyValueStore, s: Submission, now: number): void {
  const games = readPending(store).filter((g) => g.gameId !== s.gameId);
  games.push({ ...s, finishedAt: now, attempts: 0 });
  writePending(store, games);
}

export function dropPending(store: KeyValueStore, gameId: string): void {
  writePending(store, readPending(store).filter((g) => g.gameId !== gameId));
}

function notePending(store: KeyValueStore, gameId: string, message: string, notBefore: number | undefined): void {
  writePending(
    store,
    readPending(store).map((g) => (g.gameId === gameId ? { ...g, attempts: g.attempts + 1, lastError: message, notBefore } : g)),
  );
}

/** Submits one game and updates the queue by the outcome: kept only when a retry may succeed. */
export async function submitAndSettle(store: KeyValueStore, s: Submission, fetchImpl?: FetchLike, now = Date.now()): Promise<Outcome> {
  const outcome = await submitReplay(s, fetchImpl);
  if (outcome.kind === 'retry') notePending(store, s.gameId, outcome.message, outcome.retryAfterMs ? now + outcome.retryAfterMs : undefined);
  else dropPending(store, s.gameId);
  return outcome;
}

/**
 * Retries every saved game, one at a time. Concurrent calls (the `online` event, the timer and a
 * page load arriving together) share one run, so a game is never posted twice at once.
 */
export class PendingFlusher {
  private running: Promise<void> | null = null;
  private listeners = new Set<(gameId: string, outcome: Outcome) => void>();

  constructor(
    private readonly store: KeyValueStore,
    private readonly fetchImpl?: FetchLike,
    private readonly now: () => number = Date.now,
  ) {}

  onSettled(fn: (gameId: string, outcome: Outcome) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  flush(): Promise<void> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<void> {
    for (const game of readPending(this.store)) {
      // Past its ticket's expiry the server would refuse it: drop it without asking, and say so.
      // (A game saved before expiries were kept is tried once; the server's refusal drops it.)
      if (game.expiresAt !== undefined && Date.parse(game.expiresAt) <= this.now()) {
        dropPending(this.store, game.gameId);
        for (const fn of this.listeners) fn(game.gameId, { kind: 'final', code: 'ticket_expired', message: EXPIRED_MESSAGE });
        continue;
      }
      if (game.notBefore !== undefined && game.notBefore > this.now()) continue;
      const outcome = await submitAndSettle(this.store, game, this.fetchImpl, this.now());
      for (const fn of this.listeners) fn(game.gameId, outcome);
      // Unreachable, or told to back off (Retry-After): the rest would fail the same way. A game
      // the server refused for now for its own reasons (a 500, another account's) must not hold
      // up the games queued behind it.
      if (outcome.kind === 'retry' && (outcome.offline || outcome.retryAfterMs)) break;
    }
  }
}
