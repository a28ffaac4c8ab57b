import 'server-only';

/** Who is acting: a signed-in player, a guest (by cookie), or, after signing in, both. */
export type Owner = { userId: string | null; guestId: string | null };

/** A ticket is yours if it was issued to your account or to your guest cookie. */
export function owns(ticket: { userId: string | null; guestId: string | null }, owner: Owner): boolean {
  if (ticket.userId) return ticket.userId === owner.userId;
  return ticket.guestId !== null && ticket.guestId === owner.guestId;
}
