import 'server-only';
import { teamsOf } from '@/lib/engine';
import { storedBot } from '@/lib/bot/spec';
import { getDb } from '@/lib/server/db';
import { guestTag } from '@/lib/server/games/guest-tag';
import { roomSetSchema, type RoomSet, type RoomSetSeat } from '@/lib/validations/room-sets';
import { roomRulesSchema } from '@/lib/validations/rooms';
import { historyCursor } from '@/lib/validations/versus';

/**
 * A stored room set for the viewer and its API, or null when there is none: every seat by its
 * public name only (guest ids and account ids stay here), every game's replays, winner, reason and
 * leaves. A seat whose account was deleted went with it (its row cascades): it shows as deleted,
 * and the set, whose replays name nobody, stays for the others. Parsed by the payload's own schema
 * (the route and the page both read it here), so a row no version should have written fails loudly.
 */
export async function getStoredRoomSet(options: { matchId: string }): Promise<RoomSet | null> {
  const db = await getDb();
  const m = await db.roomMatch.findUnique({
    where: { id: options.matchId },
    select: {
      id: true, mode: true, rulesVersion: true, rules: true, seats: true, winnerTeam: true, ranked: true, createdAt: true,
      players: { orderBy: { seat: 'asc' }, select: { seat: true, team: true, guestId: true, botPps: true, botStyle: true, won: true, ratingBefore: true, ratingAfter: true, user: { select: { username: true } } } },
      games: { orderBy: { index: 'asc' }, select: { index: true, winnerTeam: true, reason: true, endTick: true, replays: true, leaves: true } },
    },
  });
  if (!m) return null;
  const rules = parseJson(m.rules);
  const teams = teamsIn(rules, m.seats);
  const bySeat = new Map(m.players.map((p) => [p.seat, p]));
  const players = Array.from({ length: m.seats }, (_, seat): RoomSetSeat => {
    const p = bySeat.get(seat);
    if (!p) return { seat, team: teams[seat] ?? seat, player: null, guestTag: null, bot: null, deleted: true, won: teams[seat] === m.winnerTeam, rating: null };
    const bot = storedBot(p);
    return {
      seat, team: p.team, player: p.user, guestTag: !p.user && !bot && p.guestId ? guestTag(p.guestId) : null, bot,
      deleted: !p.user && !p.guestId && !bot, won: p.won,
      // A ranked set's seats carry their 2v2 rating either side of it (room-store.ts).
      rating: p.ratingBefore !== null && p.ratingAfter !== null ? { before: p.ratingBefore, after: p.ratingAfter } : null,
    };
  });
  return roomSetSchema.parse({
    id: m.id, mode: m.mode, rulesVersion: m.rulesVersion, rules, seats: m.seats, winnerTeam: m.winnerTeam, ranked: m.ranked, playedAt: m.createdAt.toISOString(), players,
    games: m.games.map((g) => ({ index: g.index, winnerTeam: g.winnerTeam, reason: g.reason, endTick: g.endTick, replays: g.replays, leaves: parseJson(g.leaves) })),
  });
}

export type RoomSetEntry = {
  matchId: string;
  mode: string;
  ranked: boolean;
  playedAt: string;
  won: boolean;
  seats: number;
  /** Teams in the room: the seat count in a free-for-all. */
  teams: number;
};

/**
 * A player's stored room sets, newest first, a page at a time (`after`: the last entry of the
 * page before, as the versus history pages), for their profile.
 */
export async function getRoomSetHistory(options: { userId: string; limit: number; after?: { at: Date; matchId: string } }): Promise<{ entries: RoomSetEntry[]; nextCursor: string | null }> {
  const db = await getDb();
  const { after } = options;
  const rows = await db.roomSeat.findMany({
    where: { userId: options.userId, ...(after ? { OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, matchId: { lt: after.matchId } }] } : {}) },
    orderBy: [{ createdAt: 'desc' }, { matchId: 'desc' }],
    take: options.limit + 1,
    select: { won: true, createdAt: true, match: { select: { id: true, mode: true, ranked: true, seats: true, rules: true } } },
  });
  const entries = rows.slice(0, options.limit).map((r): RoomSetEntry => {
    return {
      matchId: r.match.id, mode: r.match.mode, ranked: r.match.ranked, playedAt: r.createdAt.toISOString(), won: r.won, seats: r.match.seats,
      teams: new Set(teamsIn(parseJson(r.match.rules), r.match.seats)).size,
    };
  });
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > options.limit && last ? historyCursor(new Date(last.playedAt), last.matchId) : null };
}

/** Each seat's team under stored rules; a free-for-all's (each its own) for rules that do not read. */
function teamsIn(rules: unknown, seats: number): number[] {
  const parsed = roomRulesSchema(seats).safeParse(rules);
  return parsed.success ? teamsOf(parsed.data, seats) : Array.from({ length: seats }, (_, i) => i);
}

/** JSON the store wrote; anything unreadable is null, which the payload's schema then refuses. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
