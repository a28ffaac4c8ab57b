/**
 * Every rate limit, as data. A rule allows `limit` events per `windowMs`, measured as a sliding
 * window (lib/server/limits/window.ts). Who a rule counts (an address, a player, an account) is
 * decided where it is applied. Numbers are set well above what an honest player does, so only
 * scripts meet them:
 */
export const RULES = {
  /** Sign-in attempts from one address, counted before any password is hashed. A household or
   *  school behind one NAT stays well below 30 tries in 10 minutes. */
  signInAddress: { limit: 30, windowMs: 10 * 60_000, what: 'sign-in attempts from your network' },
  /** Wrong passwords for one account from one address: guessing stops after 5 in 15 minutes, for
   *  that address only, so an attacker elsewhere cannot lock the owner out. */
  signInAccountAddress: { limit: 5, windowMs: 15 * 60_000, what: 'wrong passwords for this account' },
  /** Wrong passwords for one account from everywhere (a botnet spreads its guesses over many
   *  addresses). A browser the owner signed in with before carries a device cookie and skips both
   *  account rules, so the owner still gets in during an attack. */
  signInAccount: { limit: 100, windowMs: 60 * 60_000, what: 'wrong passwords for this account' },
  /** New accounts from one address: only accounts made count (app/api/account/route.ts gives back
   *  the others), so a school or LAN party's mistyped and taken names use none of it. */
  signUpAddress: { limit: 10, windowMs: 60 * 60_000, what: 'new accounts from your network' },
  /** Sign-up attempts from one address, made or not: what bounds the password hashing a script
   *  can make the server do with names that are taken. */
  signUpAttemptAddress: { limit: 60, windowMs: 60 * 60_000, what: 'sign-up attempts from your network' },
  /** New games per player. Sprint players restart within a second of a bad start, all session
   *  long: 120 a minute still leaves room. */
  ticketPlayer: { limit: 120, windowMs: 60_000, what: 'new games' },
  /** New games per address: several players behind one NAT, plus guests without a cookie yet. */
  ticketAddress: { limit: 600, windowMs: 60_000, what: 'new games from your network' },
  /** Submissions per player: one per finished game, plus retries from the offline queue. */
  submitPlayer: { limit: 60, windowMs: 60_000, what: 'submitted games' },
  /** Submissions per address. */
  submitAddress: { limit: 300, windowMs: 60_000, what: 'submitted games from your network' },
  /** Public reads (board pages, replays, profiles) per address: a person browsing reads a few a
   *  second at most; a scraper or a script hammering the database is slowed down. */
  publicReadAddress: { limit: 300, windowMs: 60_000, what: 'page loads from your network' },
  /** Password-reset mails, recovery-code tries and reset-link uses per address: each can be a guess
   *  at someone else's account, and each mail goes to a stranger's inbox. */
  recoveryAddress: { limit: 10, windowMs: 60 * 60_000, what: 'account recovery attempts from your network' },
  /** Account changes that check the current password (password, deletion, new recovery codes),
   *  per player: a stolen session cannot guess the password through them. */
  reauthPlayer: { limit: 10, windowMs: 15 * 60_000, what: 'password checks for your account' },
  /** Reports per player: enough for an honest player who saw several cheaters today. */
  reportPlayer: { limit: 10, windowMs: 60 * 60_000, what: 'reports' },
} as const satisfies Record<string, Rule>;

/** `what` completes "Too many …" in the error the client sees. */
export type Rule = { limit: number; windowMs: number; what: string };
export type RuleName = keyof typeof RULES;

/**
 * Limits of the live channel (lib/server/live/hub.ts), counted in memory by the process that
 * holds the sockets. A player's browser opens one socket and plays one game at a time; a few
 * more cover tabs, spectating and reconnects.
 */
export const LIVE_LIMITS = {
  /** Messages per connection per second (a batch every 100 ms is 10; pings and spectating add a few). */
  messagesPerSecond: 40,
  /** Open sockets per address (a household or school behind one NAT). */
  socketsPerAddress: 64,
  /** Live games running at once per address, and per connection. */
  gamesPerAddress: 64,
  gamesPerConnection: 1,
  /** Games one connection may watch at once. */
  watchesPerConnection: 8,
  /** New live games per connection per minute (restarting Sprint all session long). */
  startsPerMinute: 120,
  /**
   * Past messagesPerSecond a connection gets one `rate_limited` a second (the browser resends its
   * batches after it) and nothing else; at this many in one second it is closed (1008): an answer
   * per message was work and output for whoever floods.
   */
  closeAtMessagesPerSecond: 80,
  /**
   * What a stall of ours (≥ 1 s, at most 5 s of it) adds to the budget of a socket that spoke just
   * before it, a second: what an honest browser sends meanwhile (a batch each 100 ms, one at each
   * lock, a ping), all read at once after it (Connection.spend).
   */
  stallGracePerSecond: 20,
  /**
   * Bytes written to a socket and not yet taken by the network. Past this the socket is closed
   * (1013) rather than buffered further: a client that stops reading would otherwise hold the
   * server's memory. An honest one holds a few KB (acks, deals, a spectator's frames); the kernel's
   * own buffers come first.
   */
  maxBufferedBytes: 256 * 1024,
  /** Catch-ups asked for per connection per minute: `watch`, `unwatch` (of a game, a match or a room), a `resume` (each counts). */
  catchUpsPerMinute: 30,
  /** Catch-ups one game, match or room gives watchers per second, all connections of this instance together (a crowd arriving); a seat's own resume is never held by it. */
  catchUpsPerGamePerSecond: 20,
  /**
   * Tickets read per address per second for `watch`es of games hosted nowhere (is one waiting for
   * its player's resume? watch.ts): past it such a watch is answered at once, unread. Per address,
   * not per socket: a new socket's catch-up budget would otherwise buy more reads.
   */
  ticketReadsPerAddressPerSecond: 4,
  /**
   * A catch-up is a state of the game and the inputs since: the state is taken again once the
   * game is this many ticks or inputs past it, so what a catch-up carries does not grow with the game.
   */
  catchUpStateEveryTicks: 120,
  catchUpStateEveryInputs: 256,
  /** Versus lobby messages (`queue`, `unqueue`, `room_create`, `room_join`, `room_set`, `ready`, `rematch`, `spar`) per connection per minute. */
  lobbyMessagesPerMinute: 60,
  /**
   * Matches against the sparring bot (lib/bot) held at once: on this instance (each costs a search
   * per bot piece on its event loop), and per player (an account or a guest, whatever its sockets)
   * on the whole site: the player's, the address's and the hourly budgets are counted by the
   * sparring ledger (sparring-ledger.ts), in Redis with several instances.
   */
  sparringMatches: 100,
  sparringMatchesPerPlayer: 1,
  /** Per address too: a socket without a cookie is a new guest, so one address could otherwise hold every bot. */
  sparringMatchesPerAddress: 3,
  /**
   * Bot matches started per hour, per player and per address: each is a stored match (a leave at
   * once too), so starting and leaving in a loop would otherwise write 60 matches a minute.
   */
  sparringStartsPerHour: { player: 30, address: 120 },
  /**
   * WebSocket upgrades per address: `burst` at once (every socket of a household coming back after
   * a restart), then `perSecond`. A socket closed for what it sent must not dial again for free:
   * each upgrade is a handshake, a session lookup and a guest cookie.
   */
  upgradesPerAddress: { burst: 64, perSecond: 10 },
} as const;
