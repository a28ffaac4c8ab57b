import 'server-only';

/**
 * Several app instances on one Redis (docs/decisions/0018-several-instances.md): the key and
 * channel names and the lease timing, as data. Nothing here is the only copy of a finished game:
 * PostgreSQL holds the tickets and games; Redis holds who hosts what right now.
 */
export const CLUSTER = {
  /** A hosting instance renews its leases this often; one that stops renewing loses them after leaseMs. */
  renewEveryMs: 1_500,
  leaseMs: 5_000,
  /**
   * How fresh "Live now" is: a game's entry is refreshed at most this often, as its batches come
   * (game-host.ts; a paused game's stays as it was); an instance's entries are rewritten to Redis
   * this often, and vanish listTtlMs after it stops.
   */
  listEveryMs: 1_000,
  listTtlMs: 5_000,
  /** How long a spectator on another instance waits for the host's catch-up. */
  catchUpWaitMs: 3_000,
  /**
   * A spectator of a game or match whose host died waits this long at most for its player to take
   * it up (the pages dial again at once; a take-up waits out the lease, ≤ 6.5 s): then it is told
   * it is gone.
   */
  watchTakeUpWaitMs: 15_000,
  /** What a handover passes on (the pause count and a lost rank) is kept this long. */
  carryMs: 60_000,
  /** A match's checkpoint outlives its host this long: past it, a match nobody took up is lost (a set is at most minutes). */
  matchCheckpointMs: 10 * 60_000,
  /** Each instance looks this often for matches decided and not stored whose host is gone (match-hosts.ts sweep). */
  decidedSweepMs: 30_000,
} as const;

const P = 'linefall:live';
export const KEYS = {
  /** The lease: which instance hosts a game (value: instance id), expiring unless renewed. */
  host: (gameId: string) => `${P}:host:${gameId}`,
  /** Set while the hosting instance records a stream's end: a POST elsewhere answers stream_pending. */
  recording: (gameId: string) => `${P}:recording:${gameId}`,
  /** A handed-over game's pacing facts, for the instance that takes it. */
  carry: (gameId: string) => `${P}:carry:${gameId}`,
  /** One instance's "Live now" entries (a hash by game id), expiring with the instance. */
  listed: (instance: string) => `${P}:listed:${instance}`,
  /** A versus match's lease: which instance hosts it (value: instance id), as a game's. */
  matchHost: (matchId: string) => `${P}:match-host:${matchId}`,
  /** A versus match in play, as another instance takes it up (match-checkpoint.ts), rewritten as it goes. */
  matchCheckpoint: (matchId: string) => `${P}:match:${matchId}`,
  /** Matches decided and not yet stored (their store failed, or their host went first), scored by their last write. */
  decided: `${P}:decided`,
  /** A room's set in play on the versus home (room-checkpoints.ts): a head, and what was played since appended, as a match's. */
  roomSet: (matchId: string) => `${P}:room-set:${matchId}`,
  /** The room sets checkpointed under a versus home's lease (its key): what the next home takes up. */
  roomSets: (homeKey: string) => `${homeKey}:room-sets`,
  /** The versus home's rooms in their lobby, a hash by room code (room-checkpoints.ts). */
  roomLobbies: (homeKey: string) => `${homeKey}:room-lobbies`,
  /** Hash: the home's private versus rooms of two, by code, as roomLobbies. */
  versusRooms: (homeKey: string) => `${homeKey}:versus-rooms`,
  /** Instances that listed games, scored by when they last did. */
  listers: `${P}:listers`,
  /** Pub/sub: a game's frames for spectators on other instances. */
  gameChannel: (gameId: string) => `${P}:game:${gameId}`,
  /** The versus home: the instance that runs the queue, rooms and matches (value: instance id), a lease like a game's. */
  versusHome: `${P}:versus:home`,
  /** Pub/sub: requests to one instance (catch-ups, spectator counts, handovers, relayed versus messages). */
  instanceChannel: (instance: string) => `${P}:instance:${instance}`,
  /** Sparring matches held at once by a player (`who`) or an address (sparring-ledger.ts), scored by when each lapses unless its host renews it. */
  sparHeld: (by: 'who' | 'address', id: string) => `${P}:spar-held:${by}:${id}`,
  /** Sparring matches started in the last hour by a player or an address, scored by when. */
  sparStarts: (by: 'who' | 'address', id: string) => `${P}:spar-starts:${by}:${id}`,
  /** Pub/sub, every instance: a player whose session changed (a ban, a sign-out everywhere…): their sockets are checked. */
  sessions: `${P}:sessions`,
} as const;

/**
 * Lua for a lease (a game's host, the versus home): only its holder may renew it (KEYS[1], ARGV[1]
 * the holder, ARGV[2] the ms) or let it go, so a lease lost to another instance stays lost.
 */
export const LEASE_SCRIPTS = {
  renew: `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`,
  drop: `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`,
  /**
   * A match checkpoint's write, only by the match lease's holder (KEYS: the lease, the head, the
   * games list; ARGV: the holder, the ms, the head, then the chunks to append): 0 and nothing
   * written otherwise, so an instance that lost the match cannot append to the list its new host
   * writes.
   */
  checkpoint: `if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('set', KEYS[2], ARGV[3], 'PX', ARGV[2])
if #ARGV > 3 then
  redis.call('rpush', KEYS[3], unpack(ARGV, 4))
  redis.call('pexpire', KEYS[3], ARGV[2])
end
return 1`,
  /**
   * A room set's checkpoint write, only by the versus home's holder (KEYS: the home's lease, the
   * head, the chunks list, the home's list of sets; ARGV: the holder, the ms, the head, 1 to write
   * the chunks afresh, the matchId, then the chunks to append): 0 and nothing written otherwise.
   */
  roomSet: `if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('set', KEYS[2], ARGV[3], 'PX', ARGV[2])
if ARGV[4] == '1' then redis.call('del', KEYS[3]) end
if #ARGV > 5 then
  redis.call('rpush', KEYS[3], unpack(ARGV, 6))
  redis.call('pexpire', KEYS[3], ARGV[2])
end
redis.call('sadd', KEYS[4], ARGV[5])
redis.call('pexpire', KEYS[4], ARGV[2])
return 1`,
  /**
   * The home's rooms in their lobby, a hash by code, only by the versus home's holder (KEYS: the
   * home's lease, the hash; ARGV: the holder, the ms, 1 to empty it first, how many rooms to set,
   * then code and room for each, then the codes to delete).
   */
  roomLobbies: `if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] == '1' then redis.call('del', KEYS[2]) end
local n = tonumber(ARGV[4])
for i = 0, n - 1 do redis.call('hset', KEYS[2], ARGV[5 + 2 * i], ARGV[6 + 2 * i]) end
for i = 5 + 2 * n, #ARGV do redis.call('hdel', KEYS[2], ARGV[i]) end
redis.call('pexpire', KEYS[2], ARGV[2])
return 1`,
  /** A room set's checkpoint let go (stored, or closed), only by the versus home's holder (KEYS as roomSet's; ARGV: the holder, the matchId). */
  roomSetDrop: `if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('del', KEYS[2], KEYS[3])
redis.call('srem', KEYS[4], ARGV[2])
return 1`,
} as const;
