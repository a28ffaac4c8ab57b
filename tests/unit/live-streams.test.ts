import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@/lib/live/protocol';
import { StreamBook } from '@/lib/server/live/streams';

// The seats a socket was told it plays (protocol 2 keys every batch by its stream): what names one, and how many are kept.
const match = (matchId: string) => ({ t: 'match', matchId }) as ServerMessage;
const rmatch = (matchId: string, seat: number | null, code = 'ROOMAB') => ({ t: 'rmatch', matchId, seat, code }) as ServerMessage;

describe('the streams a socket plays', () => {
  it('are the match and room seats it was told it sits in or took up, never a set it only watches', () => {
    const book = new StreamBook();
    book.heard(match('m1'));
    book.heard({ t: 'vresumed', matchId: 'm2' } as ServerMessage);
    book.heard(rmatch('r1', 3));
    book.heard(rmatch('r2', null));
    book.heard({ t: 'vwatching', matchId: 'm3' } as ServerMessage);
    expect([book.kindOf('m1'), book.kindOf('m2'), book.kindOf('r1')]).toEqual(['match', 'match', 'room']);
    expect([book.kindOf('r2'), book.kindOf('m3'), book.kindOf('x')]).toEqual([undefined, undefined, undefined]);
  });

  it('are the last four: a socket cycling through matches holds no more, and one told again moves to the end', () => {
    const book = new StreamBook();
    for (const id of ['a', 'b', 'c', 'd']) book.heard(match(id));
    book.heard({ t: 'rresumed', matchId: 'a' } as ServerMessage);
    book.heard(match('e'));
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => book.kindOf(id))).toEqual(['room', undefined, 'match', 'match', 'match']);
  });

  it('end with their match or set: a batch naming one that is over is answered on the socket, with no lookup anywhere', () => {
    const book = new StreamBook();
    book.heard(match('m1'));
    book.heard(rmatch('r1', 0));
    book.heard({ t: 'vover', matchId: 'm1' } as ServerMessage);
    book.heard({ t: 'rover', matchId: 'r1' } as ServerMessage);
    expect([book.kindOf('m1'), book.kindOf('r1')]).toEqual([undefined, undefined]);
  });

  it('end for a room seat once the socket is out of its room: kicked or closed (rclosed), or its own rleave; a resumed seat keeps its room', () => {
    const book = new StreamBook();
    book.heard(rmatch('r1', 0, 'KICKED'));
    book.heard(rmatch('r2', 1, 'LEAVES'));
    book.heard(rmatch('r3', 2, 'STAYSS'));
    book.heard({ t: 'rresumed', matchId: 'r1' } as ServerMessage);
    book.heard({ t: 'rclosed', code: 'KICKED', reason: 'kicked' } as ServerMessage);
    book.leftRoom('LEAVES');
    book.leftRoom('NOTMINE');
    expect(['r1', 'r2', 'r3'].map((id) => book.kindOf(id))).toEqual([undefined, undefined, 'room']);
  });
});
