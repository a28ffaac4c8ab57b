import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';
import { CLUSTER, KEYS, LEASE_SCRIPTS } from '@/lib/server/live/cluster/cluster';
import type { RedisLink } from '@/lib/server/live/cluster/redis';
import { parseCheckpoint, type CheckpointGame, type MatchCheckpoint, type MatchCheckpoints } from '@/lib/server/live/match/match-checkpoint';

/** What one write adds to a game: each list from an index on (the last feed grows while its seat keeps sending). */
type Chunk = { g: number; f: [number, CheckpointGame['feeds']]; e: [[number, CheckpointGame['events'][0]], [number, CheckpointGame['events'][1]]]; j: [[number, CheckpointGame['joins'][0]], [number, CheckpointGame['joins'][1]]]; fo: CheckpointGame['forfeit']; d: CheckpointGame['dealt'] };
type Written = { feeds: number; events: [number, number]; joins: [number, number] };
type SeatOwner = MatchCheckpoint['seats'][number]['owner'];
/** Who may take the match up, in the head: each seat's owner and its resume token's hash. */
type Gate = Array<{ owner: SeatOwner; token: string }>;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Match checkpoints on Redis (docs/decisions/0018), written as the match goes in one script, only by
 * the holder of the match's lease: the
 * head (clock, seats, phase: small) is set, and what the games gained since the last write is
 * appended to a list, so a write costs what was played since, not the whole set (a whole ten-minute
 * set rewritten each second was ~0.9 MB and ~10 ms). Redis may lose them (it holds no finished
 * game): a match whose checkpoint is gone when its host dies is lost, and its players hear
 * `resume_failed`.
 */
export class RedisMatchCheckpoints implements MatchCheckpoints {
  /** Per match, per game: how much of it this instance has written. */
  private readonly written = new Map<string, Written[]>();

  /**
   * `refused(id)`: a write found another instance holding the match's lease (this one must stop hosting it).
   * `decidedKey`: where decided matches are listed (KEYS.decided; tests give each cluster its own).
   */
  constructor(
    private readonly link: RedisLink,
    private readonly refused: (matchId: string) => void = () => {},
    private readonly decidedKey: string = KEYS.decided,
  ) {}

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
    const gate: Gate = ([0, 1] as const).map((s) => ({ owner: head.seats[s].owner, token: tokenHash(head.state[s].token) }));
    const headText = JSON.stringify({ ...head, games: games.length, gate });
    // Decided, not stored yet: listed for any instance to store if this one goes first (match-hosts.ts sweep).
    // Sent before the write, so a drop once it is stored (sent after) always unlists it; listed by an
    // instance that no longer holds the match, it is left to the holder by the sweep.
    if (checkpoint.phase === 'over') this.link.cmd.zadd(this.decidedKey, Date.now(), checkpoint.matchId).catch(() => {});
    // Written only while this instance holds the match's lease, checked in the same script (cluster.ts).
    this.link.cmd.eval(LEASE_SCRIPTS.checkpoint, 3, KEYS.matchHost(checkpoint.matchId), key, `${key}:games`, this.link.instance, CLUSTER.matchCheckpointMs, headText, ...chunks).then(
      (ok) => {
        if (ok === 1) return;
        this.written.delete(checkpoint.matchId);
        this.refused(checkpoint.matchId);
      },
      // Unwritten, the next write would append after a gap: it starts over instead.
      () => this.written.delete(checkpoint.matchId),
    );
  }

  forget(matchId: string): void {
    this.written.delete(matchId);
  }

  drop(matchId: string): void {
    this.written.delete(matchId);
    const key = KEYS.matchCheckpoint(matchId);
    this.link.cmd.multi().del(key, `${key}:games`).zrem(this.decidedKey, matchId).exec().catch(() => {});
  }

  /** Matches decided and not stored whose checkpoint was last written before `before` (ms): at most `limit`, oldest first. */
  decided(before: number, limit: number): Promise<string[]> {
    return this.link.cmd.zrangebyscore(this.decidedKey, '-inf', before, 'LIMIT', 0, limit).catch(() => []);
  }

  /** A decided match the sweep passed over: listed as written now, so it comes after the others (a match unlisted meanwhile stays so). */
  postpone(matchId: string): void {
    this.link.cmd.zadd(this.decidedKey, 'XX', Date.now(), matchId).catch(() => {});
  }

  /** A decided match nobody can store any more (its checkpoint gone or unreadable): no longer looked for. */
  unlist(matchId: string): void {
    this.link.cmd.zrem(this.decidedKey, matchId).catch(() => {});
  }

  /**
   * Whether a match has a checkpoint: it is in play (or not yet stored) somewhere, or its host died.
   * Rejects if Redis does not answer: a caller that would give a match up on "no" must not on that.
   */
  async exists(matchId: string): Promise<boolean> {
    return (await this.link.cmd.exists(KEYS.matchCheckpoint(matchId))) === 1;
  }

  /**
   * The owner of the seat whose resume token this is, from the head alone (a few kB): null if the
   * match has no checkpoint or no seat has that token. A take-up asks this before it reads the
   * checkpoint's games (up to ~1 MB) or waits for a slot, so naming a match costs a stranger's
   * instance one small read.
   */
  async seatOf(matchId: string, token: string): Promise<SeatOwner | null> {
    const head = await this.link.cmd.get(KEYS.matchCheckpoint(matchId)).catch(() => null);
    if (!head) return null;
    let gate: Gate | undefined;
    try {
      gate = (JSON.parse(head) as { gate?: Gate }).gate;
    } catch {
      return null;
    }
    const hash = Buffer.from(tokenHash(token));
    const seat = gate?.find((g) => typeof g?.token === 'string' && g.token.length === hash.length && timingSafeEqual(Buffer.from(g.token), hash));
    return seat ? seat.owner : null;
  }

  /** The match's last checkpoint, or null (none, or unreadable: said in the log, as it is then never taken up). */
  async read(matchId: string): Promise<MatchCheckpoint | null> {
    const key = KEYS.matchCheckpoint(matchId);
    const replies = await this.link.cmd.multi().get(key).lrange(`${key}:games`, 0, -1).exec();
    const head = replies?.[0]?.[1] as string | null | undefined;
    if (!head) return null;
    let text: string;
    try {
      // The gate is the head's too; the schema leaves it out.
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

/**
 * One write's chunk onto the games read so far: each list cut where the chunk starts, then extended,
 * in place. Copying each list per chunk made a read quadratic in the writes (a ten-minute set is
 * ~600 of them).
 */
function fold(games: CheckpointGame[], c: Chunk): void {
  const game = (games[c.g] ??= { feeds: [], events: [[], []], joins: [[], []], forfeit: null, dealt: [0, 0] });
  const onto = <T>(list: T[], [from, more]: [number, T[]]): void => {
    list.length = Math.min(list.length, from);
    for (const x of more) list.push(x);
  };
  onto(game.feeds, c.f);
  for (const s of [0, 1] as const) {
    onto(game.events[s], c.e[s]);
    onto(game.joins[s], c.j[s]);
  }
  game.forfeit = c.fo;
  game.dealt = c.d;
}
