import 'server-only';
import { CLUSTER, KEYS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import { parseCheckpoint, type CheckpointGame, type MatchCheckpoint, type MatchCheckpoints } from '@/lib/server/live/match/match-checkpoint';

/** What one write adds to a game: each list from an index on (the last feed grows while its seat keeps sending). */
type Chunk = { g: number; f: [number, CheckpointGame['feeds']]; e: [[number, CheckpointGame['events'][0]], [number, CheckpointGame['events'][1]]]; j: [[number, CheckpointGame['joins'][0]], [number, CheckpointGame['joins'][1]]]; fo: CheckpointGame['forfeit']; d: CheckpointGame['dealt'] };
type Written = { feeds: number; events: [number, number]; joins: [number, number] };

/**
 * Match checkpoints on Redis (docs/decisions/0018), written as the match goes in one MULTI: the
 * head (clock, seats, phase: small) is set, and what the games gained since the last write is
 * appended to a list, so a write costs what was played since, not the whole set (a whole ten-minute
 * set rewritten each second was ~0.9 MB and ~10 ms). Redis may lose them (it holds no finished
 * game): a match whose checkpoint is gone when its host dies is lost, and its players hear
 * `resume_failed`.
 */
export class RedisMatchCheckpoints implements MatchCheckpoints {
  /** Per match, per game: how much of it this instance has written. */
  private readonly written = new Map<string, Written[]>();

  constructor(private readonly link: RedisLink) {}

  save(checkpoint: MatchCheckpoint): void {
    const { games, ...head } = checkpoint;
    const written = this.written.get(checkpoint.matchId) ?? [];
    this.written.set(checkpoint.matchId, written);
    const chunks: string[] = [];
    games.forEach((game, g) => {
      const w = (written[g] ??= { feeds: 0, events: [0, 0], joins: [0, 0] });
      const f = Math.max(0, w.feeds - 1);
      if (g < games.length - 1 && w.feeds === game.feeds.length && w.events[0] === game.events[0].length && w.events[1] === game.events[1].length) return;
      const chunk: Chunk = {
        g, f: [f, game.feeds.slice(f)], e: [[w.events[0], game.events[0].slice(w.events[0])], [w.events[1], game.events[1].slice(w.events[1])]],
        j: [[w.joins[0], game.joins[0].slice(w.joins[0])], [w.joins[1], game.joins[1].slice(w.joins[1])]], fo: game.forfeit, d: game.dealt,
      };
      written[g] = { feeds: game.feeds.length, events: [game.events[0].length, game.events[1].length], joins: [game.joins[0].length, game.joins[1].length] };
      chunks.push(JSON.stringify(chunk));
    });
    const key = KEYS.matchCheckpoint(checkpoint.matchId);
    const tx = this.link.cmd.multi().set(key, JSON.stringify({ ...head, games: games.length }), 'PX', CLUSTER.matchCheckpointMs);
    if (chunks.length > 0) tx.rpush(`${key}:games`, ...chunks).pexpire(`${key}:games`, CLUSTER.matchCheckpointMs);
    // Unwritten, the next write would append after a gap: it starts over instead.
    tx.exec().then((replies) => replies?.some(([e]) => e) && this.written.delete(checkpoint.matchId), () => this.written.delete(checkpoint.matchId));
  }

  forget(matchId: string): void {
    this.written.delete(matchId);
  }

  drop(matchId: string): void {
    this.written.delete(matchId);
    const key = KEYS.matchCheckpoint(matchId);
    this.link.cmd.del(key, `${key}:games`).catch(() => {});
  }

  /** Whether a match has a checkpoint: it is in play (or not yet stored) somewhere, or its host died. */
  async exists(matchId: string): Promise<boolean> {
    return (await this.link.cmd.exists(KEYS.matchCheckpoint(matchId)).catch(() => 0)) === 1;
  }

  /** The match's last checkpoint, or null (none, or unreadable: said in the log, as it is then never taken up). */
  async read(matchId: string): Promise<MatchCheckpoint | null> {
    const key = KEYS.matchCheckpoint(matchId);
    const replies = await this.link.cmd.multi().get(key).lrange(`${key}:games`, 0, -1).exec();
    const head = replies?.[0]?.[1] as string | null | undefined;
    if (!head) return null;
    let text: string;
    try {
      const { games: count, ...rest } = JSON.parse(head) as Omit<MatchCheckpoint, 'games'> & { games: number };
      const games: CheckpointGame[] = [];
      for (const raw of (replies?.[1]?.[1] as string[] | undefined) ?? []) fold(games, JSON.parse(raw) as Chunk);
      text = JSON.stringify({ ...rest, games: games.slice(0, count) });
    } catch {
      text = '';
    }
    const parsed = parseCheckpoint(text);
    if (!parsed.ok) console.error(`[live] match ${matchId}'s checkpoint cannot be read: ${parsed.message}`);
    return parsed.ok ? parsed.checkpoint : null;
  }
}

/** One write's chunk onto the games read so far: each list cut where the chunk starts, then extended. */
function fold(games: CheckpointGame[], c: Chunk): void {
  const game = (games[c.g] ??= { feeds: [], events: [[], []], joins: [[], []], forfeit: null, dealt: [0, 0] });
  const onto = <T>(list: T[], [from, more]: [number, T[]]): T[] => [...list.slice(0, from), ...more];
  game.feeds = onto(game.feeds, c.f);
  game.events = [onto(game.events[0], c.e[0]), onto(game.events[1], c.e[1])];
  game.joins = [onto(game.joins[0], c.j[0]), onto(game.joins[1], c.j[1])];
  game.forfeit = c.fo;
  game.dealt = c.d;
}
