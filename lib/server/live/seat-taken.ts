import 'server-only';
import type { ServerMessage } from '@/lib/live/protocol';

const MESSAGE = 'This game is being played in another tab or window now.';

/**
 * A resume took a seat (a solo game's, a match's or a room set's): the socket that held it until
 * now, if any (another tab or window of the same player, still open), is told once, so its page
 * stops playing and resumes nothing; it would take the seat back at its next reconnect, and the
 * two tabs would pass it to and fro. The socket that resumed hears nothing of it. `now` null: the
 * seat went to another instance (a solo game handed over), whatever socket resumed it there.
 */
export function tellTaken(was: { send(m: ServerMessage): void } | null, now: object | null, id: string): void {
  if (was && was !== now) was.send({ t: 'error', code: 'seat_taken', message: MESSAGE, gameId: id });
}
