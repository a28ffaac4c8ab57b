import { describe, expect, it } from 'vitest';
import { readReplayFile, replayFileName, replayFileText, ReplayFileError } from '@/lib/client/replay-file';
import { encodeReplay } from '@/lib/engine';
import { hardDropGame } from '@/tests/support/replays';

const played = hardDropGame('sprint', 'file-test');
const encoded = encodeReplay(played.replay);

describe('replay files', () => {
  it('round-trips a replay with where it came from', () => {
    const game = { id: 'abcdefgh12', player: 'alice', createdAt: '2026-11-22T10:00:00.000Z' };
    const { file, replay } = readReplayFile(replayFileText(encoded, game));
    expect(file.game).toEqual(game);
    expect(replay).toEqual(played.replay);
    expect(replayFileText(encoded, game).length).toBeLessThan(encoded.length + 200);
  });

  it('opens a bare replay text too', () => {
    expect(readReplayFile(`${encoded}\n`).replay).toEqual(played.replay);
  });

  it('names the file after the game', () => {
    expect(replayFileName('sprint', 'a/b c', 'abcdefgh12')).toBe('linefall-sprint-abc-abcdefgh12.json');
    expect(replayFileName('ultra', null, 'abcdefgh12')).toBe('linefall-ultra-guest-abcdefgh12.json');
  });

  it.each([
    ['a picture', '\x89PNG\r\n\x1a\n…', 'not a Linefall replay'],
    ['broken JSON', '{"linefall": "replay",', 'not valid JSON'],
    ['someone else’s JSON', '{"name": "package"}', 'lacks the replay'],
    ['a cut replay', replayFileText(encoded.slice(0, 20)), 'cut short'],
    ['a wrong magic', replayFileText(`AAAA${encoded.slice(4)}`), 'does not start like'],
  ])('refuses %s with a clear message', (_name, text, message) => {
    expect(() => readReplayFile(text)).toThrow(ReplayFileError);
    expect(() => readReplayFile(text)).toThrow(message);
  });

  it('refuses a file too large before reading it', () => {
    expect(() => readReplayFile('', 10_000_000)).toThrow('too large');
  });
});
