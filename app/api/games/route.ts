import { NextResponse } from 'next/server';
import { getSessionUser } from '@/lib/server/auth';
import { issueTicket } from '@/lib/server/games/tickets';
import { ensureGuestId } from '@/lib/server/guest';
import { readJson, validationError } from '@/lib/server/http';
import { ticketRequestSchema } from '@/lib/validations/games';

/** A new game: a server-issued seed, bound to the player (or the guest's cookie). */
export async function POST(request: Request) {
  const body = await readJson(request, 1024);
  if (!body.ok) return body.response;
  const parsed = ticketRequestSchema.safeParse(body.value);
  if (!parsed.success) return validationError(parsed.error);
  const user = await getSessionUser();
  const owner = user ? { userId: user.id, guestId: null } : { userId: null, guestId: await ensureGuestId(request) };
  const ticket = await issueTicket({ mode: parsed.data.mode, owner });
  return NextResponse.json(ticket, { status: 201, headers: { 'cache-control': 'no-store' } });
}
