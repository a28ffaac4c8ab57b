import 'server-only';
import { z } from 'zod';
import { keyId, MAX_MATCH_SEED_LENGTH, MAX_SEATS, VERSUS_MODE_NAMES, type InputEvent, type RoomGame, type RoomRules, type RoomTick } from '@/lib/engine';
import { fromWireEvent } from '@/lib/live/protocol';
import type { RoomSeat } from '@/lib/server/live/rooms/room-seat';
import { parseStored } from '@/lib/server/live/match/match-checkpoint';
import { botSpecSchema } from '@/lib/bot/spec';
import { countSchema, handlingSchema, intTuples, livePlayerSchema, MAX_TICK, wireEventsSchema, type WireEvent } from '@/lib/live/wire';
import { roomRulesSchema } from '@/lib/validations/rooms';
import { MAX_SET_GAMES } from '@/lib/validations/room-sets';

/**
 * A room's set in play, as data a host can be rebuilt from (RoomHost.restore): the first step of
 * a set that outlives the instance hosting it (decision 0034's hole). The referee is lockstep: a
 * global tick is played once every seat still in has sent it, so a game is each seat's inputs by
 * its own tick, its target changes, and who left at which global tick; the order batches came in
 * does not change it. A bot chooses its inputs for the piece it holds again when replayed (it reads
 * only its field), checked against those written, as every seat's garbage and pieces dealt are: a
 * checkpoint that would replay into another game is refused, never played.
 */
const MAX_EVENTS = 200_000;
export const seatSpecSchema = z.object({
  owner: z.object({ userId: z.string().min(1).max(64).nullable(), guestId: z.string().min(1).max(64).nullable() }),
  player: livePlayerSchema,
  handling: handlingSchema,
  bot: botSpecSchema.optional(),
  queued: z.object({ rating: z.object({ rating: z.number(), rd: z.number(), vol: z.number() }), party: z.boolean() }).optional(),
});
const gameSeat = z.object({
  /** Inputs as the seat played them (a person's as sent, a bot's as it chose them). */
  events: wireEventsSchema(MAX_EVENTS),
  /** Ticks the seat has sent (for a bot: played). */
  ticks: z.number().int().min(0).max(MAX_TICK),
  /** Target changes as sent: [tick, seat]. */
  targets: intTuples<[number, number]>([[0, MAX_TICK], [0, MAX_SEATS - 1]], 100_000),
  /** The game in play only, checked on restore: garbage joined to this seat, [tick, size, column], and pieces dealt to it. */
  joins: intTuples<[number, number, number]>([[0, MAX_TICK], [1, 100], [-1, 100]], 100_000).optional(),
  dealt: countSchema.optional(),
});
const game = z.object({
  seats: z.array(gameSeat).min(2).max(MAX_SEATS),
  /** Who left (or was put out by the host) and at which global tick, in that order. */
  leaves: intTuples<[number, number]>([[0, MAX_SEATS - 1], [0, MAX_TICK]], MAX_SEATS),
  /** Its outcome (winning team or null, and its tick), once decided (the game in play's too: a walkover waits in its countdown): checked on restore. */
  decided: z.object({ winner: z.number().int().min(0).max(MAX_SEATS - 1).nullable(), tick: z.number().int().min(0).max(MAX_TICK) }).nullable(),
});
const seatState = z.object({
  token: z.string().min(1).max(100),
  lastSeq: countSchema,
  leftRoom: z.boolean(),
  startSent: z.number().int().min(-1),
  excusedMs: z.number().min(0),
  /** Our own stalls excused from its pace (SeatStream.stalledMs): without it, the same set would put a seat out for lag that the host written from did not. */
  stalledMs: z.number().min(0),
});

export const roomCheckpointSchema = z
  .object({
    v: z.literal(1),
    matchId: z.string().min(1).max(64),
    code: z.string().min(1).max(16),
    seed: z.string().min(1).max(MAX_MATCH_SEED_LENGTH),
    mode: z.enum(VERSUS_MODE_NAMES),
    rules: z.custom<RoomRules>(() => true),
    seats: z.array(seatSpecSchema).min(2).max(MAX_SEATS),
    /** Every game started so far, the one in play (or just decided) last. */
    games: z.array(game).min(1).max(MAX_SET_GAMES),
    phase: z.enum(['countdown', 'playing', 'between', 'over']),
    /** The game in play's clock when written: milliseconds since its tick 0 (negative in the countdown; 0 between games). */
    elapsedMs: z.number(),
    /** Between games: how long until the next one starts. */
    nextInMs: z.number().min(0),
    state: z.array(seatState).min(2).max(MAX_SEATS),
    /** When it was written (Date.now()): how stale a host taking it up finds it. */
    writtenAt: z.number(),
  })
  .superRefine((cp, ctx) => {
    const rules = roomRulesSchema(cp.seats.length).safeParse(cp.rules);
    if (!rules.success) ctx.addIssue({ code: 'custom', path: ['rules'], message: rules.error.issues.map((i) => i.message).join('; ') });
    const n = cp.seats.length;
    if (cp.state.length !== n || cp.games.some((g) => g.seats.length !== n)) ctx.addIssue({ code: 'custom', message: `every game and state has ${n} seats` });
  });
export type RoomCheckpoint = z.infer<typeof roomCheckpointSchema>;
export type RoomCheckpointGame = z.infer<typeof game>;

/** Kicked players a room's checkpoint keeps (the latest). */
export const MAX_KICKED = 1_000;
/** The room around a set in play, besides the set (the lobby's): its chair, who may not come back, and what follows the set. */
export const roomAroundSchema = z.object({
  host: z.number().int().min(-1).max(MAX_SEATS - 1),
  kicked: z.array(z.string().min(1).max(80)).max(MAX_KICKED),
  again: z.boolean(),
  ranked: z.boolean(),
});
export type RoomAround = z.infer<typeof roomAroundSchema>;
/** A set as the next home takes it up: its checkpoint, its room, and how long ago it was written. */
export type RoomSetWritten = { cp: RoomCheckpoint; room: RoomAround; lateMs: number };

/** A checkpoint that does not replay into the set it describes: it is not taken up. */
export class RoomRestoreError extends Error {}

/** Parses a checkpoint as stored: the reason for anything that is not one. */
export function parseRoomCheckpoint(text: string): { ok: true; checkpoint: RoomCheckpoint } | { ok: false; message: string } {
  return parseStored(roomCheckpointSchema, text);
}

/** A decided game as the referee holds it: what each seat played, its target changes, who left when, and how it ended. */
export function decidedGame(g: RoomGame): RoomCheckpointGame {
  const seats = Array.from({ length: g.seats }, (_, s) => {
    const r = g.replay(s);
    return { events: r.events.map((e): WireEvent => [e.tick, keyId(e.key), e.down ? 1 : 0]), ticks: g.game(s).tickNo, targets: (r.room?.targets ?? []).map((t): [number, number] => [t.tick, t.target]) };
  });
  return { seats, leaves: g.leaves().map((l): [number, number] => [l.seat, l.tick]), decided: g.outcome && { winner: g.outcome.winner, tick: g.outcome.tick } };
}

/** Where each tick's events are in a seat's list, [from, to). */
export function eventsByTick(events: readonly WireEvent[]): Map<number, [number, number]> {
  const at = new Map<number, [number, number]>();
  for (let i = 0; i < events.length; i++) {
    const t = events[i]![0];
    const span = at.get(t);
    if (span) span[1] = i + 1;
    else at.set(t, [i, i + 1]);
  }
  return at;
}

/**
 * Replays a game's record through the lockstep referee as it was played: at each global tick,
 * those who left at it leave, then each seat still in plays that tick if it sent it; once one
 * has sent no more, those ahead play on to what they sent (the referee holds those ticks, as it did).
 */
export function replayGame(g: RoomGame, cg: RoomCheckpointGame, io: { leave(s: number): void; play(s: number, tick: number): void }): void {
  const n = cg.seats.length;
  const fed = new Array<number>(n).fill(0);
  let left = 0;
  for (;;) {
    const at = g.tick;
    for (; left < cg.leaves.length && cg.leaves[left]![1] === at; left++) io.leave(cg.leaves[left]![0]);
    if (g.outcome) break;
    let played = false;
    for (let s = 0; s < n; s++) {
      if (g.isOut(s) || fed[s] !== at || at >= cg.seats[s]!.ticks) continue;
      io.play(s, at);
      fed[s] = at + 1;
      played = true;
    }
    if (!played) break;
  }
  for (let s = 0; s < n; s++) for (; !g.outcome && !g.isOut(s) && fed[s]! < cg.seats[s]!.ticks; fed[s]!++) io.play(s, fed[s]!);
  if (left < cg.leaves.length) throw new RoomRestoreError(`seat ${cg.leaves[left]![0]} left at tick ${cg.leaves[left]![1]}, which its game never reached`);
}

/** The game in play as its seats' streams hold it: a person's ticks sent but not yet played too, and what each seat was dealt and sent. */
export function gameInPlay(seats: readonly RoomSeat[], g: RoomGame): RoomCheckpointGame {
  return {
    seats: seats.map((seat, s) => ({
      events: seat.stream.stream.log.wire(), ticks: seat.isBot ? g.game(s).tickNo : seat.sentTick, targets: seat.targets.map(([t, to]): [number, number] => [t, to]),
      joins: seat.stream.garbage.map((j): [number, number, number] => [j.tick, j.size, j.column]), dealt: seat.stream.stream.dealt.length,
    })),
    leaves: g.leaves().map((l): [number, number] => [l.seat, l.tick]),
    decided: g.outcome && { winner: g.outcome.winner, tick: g.outcome.tick },
  };
}

/** A decided game (`index` of the set) replayed through the referee alone: it must end as written. */
export function replayDecided(g: RoomGame, cg: RoomCheckpointGame, index: number): void {
  const at = cg.seats.map((x) => eventsByTick(x.events));
  const targets = cg.seats.map((x) => new Map(x.targets));
  replayGame(g, cg, { leave: (s) => void g.leave(s), play: (s, t) => void g.play(s, inputsOf(cg.seats[s]!.events, at[s]!.get(t)), targets[s]!.get(t)) });
  // Played again, it is written exactly as it was: every seat's inputs, ticks and target changes, who left when, how it ended.
  if (!g.outcome || JSON.stringify(decidedGame(g)) !== JSON.stringify(cg)) throw new RoomRestoreError(`game ${index} does not replay to the game written`);
}

/** What replaying the game in play needs of its host: its seats (their streams set up for the game), the game's number, and its own path for what the referee settled. */
export type InPlayHost = { seats: readonly RoomSeat[]; game: number; after(ticks: RoomTick[]): void };

/**
 * The game in play replayed through its host's paths, so each seat's stream (garbage joined,
 * pieces dealt, frames) is rebuilt as it was; each bot plays its piece in hand again, choosing
 * its inputs from that piece's first tick, checked against those written; then every seat is
 * checked against its garbage, its deals and its inputs.
 */
export function replayInPlay(host: InPlayHost, g: RoomGame, cg: RoomCheckpointGame): void {
  const at = cg.seats.map((x) => eventsByTick(x.events));
  const targets = cg.seats.map((x) => new Map(x.targets));
  const choosesFrom = pieceInHand(host.seats, g, cg, at, targets);
  host.seats.forEach((seat, s) => {
    const x = cg.seats[s]!;
    if (x.joins === undefined || x.dealt === undefined) throw new RoomRestoreError(`seat ${s} of the game in play has no garbage or deals written`);
    const bad = seat.isBot ? null : seat.stream.admit({ game: host.game, seq: 0, tick: x.ticks, events: x.events }, targets[s]!);
    if (bad) throw new RoomRestoreError(`seat ${s}: ${bad.message}`);
  });
  replayGame(g, cg, {
    leave: (s) => host.after(g.leave(s)),
    play: (s, t) => {
      const seat = host.seats[s]!;
      const events = cg.seats[s]!.events;
      const span = at[s]!.get(t);
      const log = seat.stream.stream.log;
      if (seat.isBot && t >= choosesFrom[s]!) {
        const before = log.length;
        const played = seat.botTick(g, s);
        if (JSON.stringify(log.wire(before)) !== JSON.stringify(span ? events.slice(span[0], span[1]) : [])) throw new RoomRestoreError(`the bot in seat ${s} did not play tick ${t} as written`);
        return host.after(played);
      }
      if (span) log.pushWire(events, span[0], span[1]);
      const to = targets[s]!.get(t);
      if (to !== undefined) seat.targets.push([t, to]);
      host.after(g.play(s, inputsOf(events, span), to));
    },
  });
  host.seats.forEach((seat, s) => {
    const x = cg.seats[s]!;
    const log = seat.stream.stream.log;
    if (!seat.isBot) seat.sentTick = x.ticks;
    // A person's ticks sent before the referee reached the one they went out at were read (logged) then, their target changes too: so here.
    if (g.isOut(s) && !seat.isBot) {
      log.pushWire(x.events, log.length);
      seat.targets = x.targets.map(([t, to]): [number, number] => [t, to]);
    }
    const joins = seat.stream.garbage.map((j) => [j.tick, j.size, j.column]);
    if (x.joins && JSON.stringify(joins) !== JSON.stringify(x.joins)) throw new RoomRestoreError(`seat ${s} does not replay to the garbage written`);
    if (x.dealt !== undefined && seat.stream.stream.dealt.length !== x.dealt) throw new RoomRestoreError(`seat ${s} does not replay to the pieces dealt`);
    if (JSON.stringify(log.wire()) !== JSON.stringify(x.events) || JSON.stringify(seat.targets) !== JSON.stringify(x.targets)) throw new RoomRestoreError(`seat ${s} does not replay to the inputs written`);
  });
  // Decided already only in its countdown (a walkover: its end is the first beat's), and then as written.
  const o = g.outcome && { winner: g.outcome.winner, tick: g.outcome.tick };
  if (JSON.stringify(o) !== JSON.stringify(cg.decided)) throw new RoomRestoreError('the game in play does not replay to the end written');
}

/**
 * For each bot seat, the tick its piece in hand came in: from there a new bot plays exactly as the
 * one written did (SparringBot plans each piece afresh from the field, as a piece comes in), so its
 * inputs before it are played as written rather than searched for again (the search is nearly all
 * of a restore's time). Found on a copy of the game replayed as written; a person's seat is Infinity.
 */
function pieceInHand(seats: readonly RoomSeat[], g: RoomGame, cg: RoomCheckpointGame, at: Map<number, [number, number]>[], targets: Map<number, number>[]): number[] {
  const copy = g.clone();
  const from = seats.map((seat) => (seat.isBot ? 0 : Infinity));
  const pieces = seats.map(() => 0);
  const taken = seats.map(() => -1);
  replayGame(copy, cg, {
    leave: (s) => void copy.leave(s),
    play: (s, t) => {
      // A piece comes in only as one is taken from the queue (a lock, or a hold): the count is read only then.
      if (from[s] !== Infinity && copy.game(s).taken !== taken[s]) {
        taken[s] = copy.game(s).taken;
        const n = copy.game(s).stats().pieces;
        if (n !== pieces[s]) [from[s], pieces[s]] = [t, n];
      }
      copy.play(s, inputsOf(cg.seats[s]!.events, at[s]!.get(t)), targets[s]!.get(t));
    },
  });
  return from;
}

/** The inputs of a tick, by where they are in a seat's list (eventsByTick); none for a tick without any. */
function inputsOf(events: readonly WireEvent[], span: [number, number] | undefined): InputEvent[] | undefined {
  return span ? events.slice(span[0], span[1]).map(fromWireEvent) : undefined;
}
