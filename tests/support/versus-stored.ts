/**
 * A stored versus match as the match viewer's API gives it (GET /api/versus/matches/{id}), and the
 * check that each game's two replays re-simulate alone into the match that was stored: the garbage
 * each seat received is what the other's replay sent, and the outcome follows. For the API tests
 * and the cluster test (plain errors, no test runner).
 */
import { decodeReplay, simulateReplay, type ReplayResult } from '@/lib/engine';

export type StoredMatch = {
  matchId: string;
  ranked: boolean;
  firstTo: number;
  winnerSeat: number;
  endReason: string;
  seats: Array<{ seat: number; username: string | null; gamesWon: number; won: boolean; ratingBefore: number | null; ratingAfter: number | null; rdBefore: number | null; rdAfter: number | null }>;
  games: Array<{ index: number; winnerSeat: number | null; reason: string; endTick: number; replays: [string, string] }>;
};

type ApiMatch = Omit<StoredMatch, 'matchId' | 'seats'> & {
  id: string;
  seats: Array<{ seat: number; player: { username: string } | null; gamesWon: number; won: boolean; rating: { before: number; after: number; rdBefore: number; rdAfter: number } | null }>;
};

/** The match once it is stored (a match is written just after its `vover`): waits up to 5 s. */
export async function fetchStoredMatch(baseURL: string, matchId: string, headers: Record<string, string> = {}): Promise<StoredMatch> {
  const get = () => fetch(`${baseURL}/api/versus/matches/${matchId}`, { headers });
  let res = await get();
  for (let i = 0; i < 20 && res.status === 404; i++) {
    await new Promise((r) => setTimeout(r, 250));
    res = await get();
  }
  if (res.status !== 200) throw new Error(`match ${matchId}: GET answered ${res.status}`);
  const { id, seats, ...rest } = (await res.json()) as ApiMatch;
  return {
    ...rest, matchId: id,
    seats: seats.map((s) => ({
      seat: s.seat, username: s.player?.username ?? null, gamesWon: s.gamesWon, won: s.won,
      ratingBefore: s.rating?.before ?? null, ratingAfter: s.rating?.after ?? null, rdBefore: s.rating?.rdBefore ?? null, rdAfter: s.rating?.rdAfter ?? null,
    })),
  };
}

/** What does not re-simulate as stored, one line each (empty: every replay verifies). */
export function resimulationProblems(m: StoredMatch): string[] {
  const problems: string[] = [];
  const score = [0, 0];
  for (const g of m.games) {
    const replays = g.replays.map((r) => decodeReplay(r));
    const sends: Array<Array<{ tick: number; size: number }>> = [[], []];
    const results = replays.map((r, s) => simulateReplay(r, { maxTicks: Math.max(g.endTick, r.events.at(-1)?.tick ?? 0, r.garbage?.at(-1)?.tick ?? 0) + 1, sends: sends[s] })) as [ReplayResult, ReplayResult];
    for (const s of [0, 1]) {
      const got = (replays[s]!.garbage ?? []).map((x) => x.size).join(',');
      const sent = sends[1 - s]!.slice(0, replays[s]!.garbage?.length ?? 0).map((x) => x.size).join(',');
      if (got !== sent) problems.push(`match ${m.matchId} game ${g.index} seat ${s} received garbage [${got}], the other replay sent [${sent}]`);
    }
    if (g.reason === 'topOut' && g.winnerSeat !== null) {
      const loser = results[1 - g.winnerSeat]!;
      if (!(loser.toppedOut && loser.ticks === g.endTick)) problems.push(`match ${m.matchId} game ${g.index}: the loser did not top out at ${g.endTick}`);
      if (results[g.winnerSeat]!.ended && results[g.winnerSeat]!.ticks < g.endTick) problems.push(`match ${m.matchId} game ${g.index}: the winner ended first`);
    }
    if (g.winnerSeat !== null) score[g.winnerSeat]!++;
  }
  const won = m.seats.map((s) => s.gamesWon).join(',');
  if (won !== score.join(',')) problems.push(`match ${m.matchId}: games won stored as ${won}, the replays say ${score.join(',')}`);
  if (m.endReason === 'games' && score[m.winnerSeat] !== m.firstTo) problems.push(`match ${m.matchId}: the winner has ${score[m.winnerSeat]} games, not ${m.firstTo}`);
  return problems;
}
