/**
 * Ranked 2v2 (issue 36; decision 0036), both directions: zod schemas both sides parse, part of
 * the live protocol (protocol.ts). A signed-in player queues alone, or makes a party code a friend joins and
 * either of them queues both; two teams found, the set is a room (lib/live/rooms.ts `rmatch`, …).
 */
import { z } from 'zod';
import { handlingSchema, livePlayerSchema } from '@/lib/live/wire';

/** A party's code: six of the room codes' letters (32^6 codes; guessing is bounded by the lobby budget). */
export const partyCodeSchema = z.string().regex(/^[A-Z2-9]{6}$/, 'not a party code');

/** Ranked 2v2 messages from the browser. */
export const teamClientMessages = [
  /** Makes a party of two: its code is for a friend (`tjoin`); the maker is its first member. */
  z.object({ t: z.literal('tparty'), handling: handlingSchema }),
  z.object({ t: z.literal('tjoin'), code: partyCodeSchema, handling: handlingSchema }),
  /** Queues the sender alone, or with their party (both members, once it has two). */
  z.object({ t: z.literal('tqueue'), handling: handlingSchema }),
  /** Out of the queue and out of any party (the partner is told, and unqueued too). */
  z.object({ t: z.literal('tleave') }),
] as const;
export const TEAM_CLIENT_TYPES: ReadonlySet<string> = new Set(teamClientMessages.map((s) => s.shape.t.value));

/** Why a player is out of the queue without a match (a match says `rmatch` instead). */
export const TEAM_UNQUEUE_REASONS = ['left', 'partner_left', 'refused'] as const;

/** Ranked 2v2 messages from the server. */
export const teamServerMessages = [
  /** The party as its members see it, on every change. */
  z.object({ t: z.literal('tparty'), code: partyCodeSchema, members: z.array(livePlayerSchema).max(2) }),
  /** In the queue (alone or as a pair); `waiting`: players queued for 2v2 on this server now. */
  z.object({ t: z.literal('tqueued'), pair: z.boolean(), waiting: z.number().int().min(0) }),
  z.object({ t: z.literal('tunqueued'), reason: z.enum(TEAM_UNQUEUE_REASONS) }),
] as const;
export type TeamServerMessage = z.infer<(typeof teamServerMessages)[number]>;
const TEAM_SERVER_TYPES: ReadonlySet<string> = new Set(teamServerMessages.map((s) => s.shape.t.value));
/** A ranked-2v2 queue message: a page that does not queue passes it by before its own switch. */
export const isTeamServerMessage = <M extends { t: string }>(m: M): m is Extract<M, TeamServerMessage> => TEAM_SERVER_TYPES.has(m.t);
