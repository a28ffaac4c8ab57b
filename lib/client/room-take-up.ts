/**
 * A room seat handed from one page to the next (the ranked 2v2 queue's control seats its player
 * on its own connection; the room page takes the seat up on its connection with the token). Kept
 * in this tab's sessionStorage, never in the address, so the token is in no history or referrer.
 */
const key = (code: string) => `linefall:room-take-up:${code}`;

export function keepTakeUp(code: string, matchId: string, token: string): void {
  try {
    sessionStorage.setItem(key(code), JSON.stringify({ matchId, token }));
  } catch {
    // Storage refused (private mode): the room page joins by its code and is told the room plays.
  }
}

/** The seat kept for this room's page, read once. */
export function takeUpFor(code: string): { matchId: string; token: string } | null {
  try {
    const raw = sessionStorage.getItem(key(code));
    sessionStorage.removeItem(key(code));
    const v: unknown = raw ? JSON.parse(raw) : null;
    if (v && typeof v === 'object' && 'matchId' in v && 'token' in v && typeof v.matchId === 'string' && typeof v.token === 'string') return { matchId: v.matchId, token: v.token };
  } catch {
    // Unreadable: as if none was kept.
  }
  return null;
}
