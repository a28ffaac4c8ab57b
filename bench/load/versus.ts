// The versus side of the cluster test (bench/load/run.ts --cluster): a private room whose two
// players are connected to different instances, watched by a spectator on a third connection (through
// nginx), played to the end by bots at real pace; then a quick match between two guests queued on
// different instances, one of whom drops and resumes through the other instance. Both matches must
// be stored and re-simulate from their replays.
import type { ServerMessage } from '@/lib/live/protocol';
import { HANDLING, VersusPlayer } from '@/tests/support/versus-client';
import { fetchStoredMatch, resimulationProblems } from '@/tests/support/versus-stored';

type Result = { problems: string[]; lines: string[] };

export async function versusAcrossInstances(o: { instances: [string, string]; proxy: string }): Promise<Result> {
  const problems: string[] = [];
  const lines: string[] = [];
  const players: VersusPlayer[] = [];
  const connect = async (url: string, seed: string, address: string, bot: object = {}) => {
    const p = await VersusPlayer.connect(url, { seed, ...bot }, { address });
    players.push(p);
    return p;
  };
  try {
    // A room made on the first instance, joined by its code on the second.
    const a = await connect(o.instances[0], 'cluster-a', '10.252.0.1', { mistakes: 0.3, pace: 10 });
    const b = await connect(o.instances[1], 'cluster-b', '10.252.0.2', { mistakes: 0.3, pace: 10 });
    a.client.send({ t: 'room_create', mode: 'battle', firstTo: 1, handling: HANDLING, nextCount: 5 });
    const { room } = await a.client.next('room');
    b.client.send({ t: 'room_join', code: room.code, handling: HANDLING, nextCount: 5 });
    await a.client.next('room', (m) => m.room.seats[1] !== null);
    a.client.send({ t: 'ready', code: room.code, ready: true });
    b.client.send({ t: 'ready', code: room.code, ready: true });
    const [ma, mb] = await Promise.all([a.client.next('match'), b.client.next('match')]);
    if (ma.matchId !== mb.matchId) problems.push(`the room's players were put in different matches: ${ma.matchId}, ${mb.matchId}`);
    const playing = Promise.all([a.play(), b.play()]);

    // A spectator through nginx, once both seats have played (past the 3 s countdown).
    const watcher = await connect(o.proxy, 'cluster-w', '10.252.0.3');
    await new Promise((r) => setTimeout(r, 5_000));
    watcher.client.send({ t: 'watch', of: { kind: 'match', id: ma.matchId } });
    const watching = await watcher.client.next('vwatching', () => true, 10_000);
    if (!watching.seats.every((s) => s.tick > 0)) problems.push(`the spectator's catch-up has a seat that has not played: ${watching.seats.map((s) => s.tick).join(', ')}`);
    const frames = await Promise.all([0, 1].map((seat) => watcher.client.next('vframe', (f) => f.seat === seat, 10_000).then(() => true, () => false)));
    if (!frames.every(Boolean)) problems.push(`the spectator got frames of seats ${frames.map((f, s) => (f ? s : null)).filter((s) => s !== null).join(', ') || 'none'}`);
    const listed = (await (await fetch(`${o.instances[0]}/api/live`, { headers: { 'x-forwarded-for': '10.252.0.4' } })).json()) as { matches: Array<{ matchId: string }> };
    const listedElsewhere = (await (await fetch(`${o.instances[1]}/api/live`, { headers: { 'x-forwarded-for': '10.252.0.4' } })).json()) as { matches: Array<{ matchId: string }> };
    if (![listed, listedElsewhere].every((l) => l.matches.some((m) => m.matchId === ma.matchId))) problems.push('the match is not in "Live now" on both instances');

    const [over] = await playing;
    const seen = await watcher.client.next('vover', (m) => m.matchId === ma.matchId, 10_000).then(() => true, () => false);
    if (!seen) problems.push('the spectator did not see the match end');
    if (!over.stored) problems.push(`the room match ended without being stored: ${JSON.stringify(over)}`);
    const roomMatch = await fetchStoredMatch(o.proxy, ma.matchId, { 'x-forwarded-for': '10.252.0.4' });
    problems.push(...resimulationProblems(roomMatch));
    lines.push(`room match ${ma.matchId}: players on instances 1 and 2, a spectator through nginx; ${roomMatch.games.length} game(s), won by seat ${roomMatch.winnerSeat}, both replays re-simulate`);

    // A quick match: two guests queued on different instances are paired; one leaves at once.
    const c = await connect(o.instances[0], 'cluster-c', '10.252.0.5');
    const d = await connect(o.instances[1], 'cluster-d', '10.252.0.6');
    for (const p of [c, d]) p.client.send({ t: 'queue', mode: 'race30', ranked: false, handling: HANDLING, nextCount: 5 });
    const [mc, md] = await Promise.all([c.client.next('match', () => true, 15_000), d.client.next('match', () => true, 15_000)]);
    if (mc.matchId !== md.matchId) problems.push(`the queued guests were not paired together: ${mc.matchId}, ${md.matchId}`);
    // The second one's socket drops; it comes back through the other instance and takes its seat up.
    const resumed = await d.reconnect(o.instances[0], d.guestCookie(), '10.252.0.6');
    if (resumed.matchId !== md.matchId) problems.push(`the reconnect through the other instance resumed ${resumed.matchId}, not ${md.matchId}`);
    c.client.send({ t: 'leave', of: { kind: 'match', id: mc.matchId } });
    const ends = await Promise.all([c, d].map((p) => p.client.next('vover', (m: Extract<ServerMessage, { t: 'vover' }>) => m.matchId === mc.matchId, 15_000)));
    if (ends.some((e) => e.winner !== 1 - mc.seat)) problems.push(`the player who left (seat ${mc.seat}) did not lose: winners ${ends.map((e) => e.winner).join(', ')}`);
    const quick = await fetchStoredMatch(o.proxy, mc.matchId, { 'x-forwarded-for': '10.252.0.4' });
    problems.push(...resimulationProblems(quick));
    lines.push(`quick match ${mc.matchId}: guests queued on instances 1 and 2 were paired; one dropped and resumed through the other instance; the one who left lost; stored (${quick.endReason})`);
  } catch (error) {
    problems.push(`versus across instances: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const p of players) p.close();
  }
  return { problems, lines };
}
