'use client';

import { useEffect, useState } from 'react';
import { PendingFlusher, readPending } from '@/lib/client/pending';

/** How often saved games are retried while a play page is open. */
export const RETRY_EVERY_MS = 15_000;

let shared: PendingFlusher | null = null;
/** One flusher per tab, so the page, the timer and `online` never submit a game twice at once. */
export function pendingFlusher(): PendingFlusher {
  shared ??= new PendingFlusher(window.localStorage);
  return shared;
}

/**
 * Submits games saved while the server was unreachable: now, when the browser comes back online,
 * and every RETRY_EVERY_MS. Returns how many are still waiting, went through, or expired unsent.
 */
export function usePendingGames(): { waiting: number; submitted: number; expired: number } {
  const [counts, setCounts] = useState({ waiting: 0, submitted: 0, expired: 0 });
  useEffect(() => {
    const flusher = pendingFlusher();
    const refresh = () => setCounts((c) => ({ ...c, waiting: readPending(window.localStorage).length }));
    const off = flusher.onSettled((_id, outcome) => {
      setCounts((c) => ({
        waiting: readPending(window.localStorage).length,
        submitted: c.submitted + (outcome.kind === 'ok' ? 1 : 0),
        expired: c.expired + (outcome.kind === 'final' && outcome.code === 'ticket_expired' ? 1 : 0),
      }));
    });
    const flush = () => void flusher.flush().then(refresh);
    flush();
    window.addEventListener('online', flush);
    const timer = window.setInterval(flush, RETRY_EVERY_MS);
    return () => {
      off();
      window.removeEventListener('online', flush);
      window.clearInterval(timer);
    };
  }, []);
  return counts;
}

/**
 * The play page's retries of saved games (now, on `online`, every RETRY_EVERY_MS), started with
 * its game code rather than by a hook in the page, so the queue's code stays out of the page's
 * first load. Returns the function that stops them.
 */
export function keepRetrying(): () => void {
  const flush = () => void pendingFlusher().flush();
  flush();
  window.addEventListener('online', flush);
  const timer = window.setInterval(flush, RETRY_EVERY_MS);
  return () => {
    window.removeEventListener('online', flush);
    window.clearInterval(timer);
  };
}
