import { NextResponse } from 'next/server';
import { getSessionUser } from '@/lib/server/auth';
import { issueTicket } from '@/lib/server/games/tickets';
import { ensureGuestId, readGuestId } from '@/lib/server/guest';
import { apiError, readJson, validationError } from '@/lib/server/http';
import { clientAddressKey, enforce } from '@/lib/server/limits/http';
import { route } from '@/lib/server/route';
import { ticketRequestSchema } from '@/lib/validations/games';

/** A new game: a server-issued seed, bound to the player (or the guest's cookie). */
export const POST = route(async (request: Request) => {
  const user = await getSessionUser();
  // A banned player sees why, on every attempt (their open tickets were spent by the ban too).
  if (user?.banReason != null) return apiError(403, 'banned', `Your account is banned from playing ranked games: ${user.banReason}`);
  const player = user?.id ?? (await readGuestId());
  const limited = await enforce([
    { rule: 'ticketAddress', subject: await clientAddressKey() },
    ...(player ? [{ rule: 'ticketPlayer' as const, subject: player }] : []),
  ]);
  if (limited) return limited;
  const body = await readJson(request, 1024);
  if (!body.ok) return body.response;
  const parsed = ticketRequestSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const owner = user ? { userId: user.id, guestId: null } : { userId: null, guestId: await ensureGuestId(request) };
  const ticket = await issueTicket({ mode: parsed.data.mode, owner });
  return NextResponse.json(ticket, { status: 201, headers: { 'cache-control': 'no-store' } });
});
