'use client';

import { useState } from 'react';
import { readReplayFile, ReplayFileError } from '@/lib/client/replay-file';
import { MAX_REPLAY_FILE_BYTES } from '@/lib/validations/replay-file';
import { ReplayViewer } from '@/components/replay/ReplayViewer';

type Opened = { encoded: string; name: string; gameId: string | null; title: string };

/** Opens a downloaded replay from disk (file picker or drag and drop) in the viewer. Nothing is uploaded. */
export function OpenReplay() {
  const [opened, setOpened] = useState<Opened | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const read = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      // A file too large is refused by its size, without being read into memory.
      const text = file.size > MAX_REPLAY_FILE_BYTES ? '' : await file.text();
      const { file: parsed, replay } = readReplayFile(text, file.size);
      const who = parsed.game ? (parsed.game.player ?? 'Guest') : 'Replay';
      setOpened({ encoded: parsed.replay, name: file.name, gameId: parsed.game?.id ?? null, title: `${who} · ${replay.mode}` });
    } catch (e) {
      setOpened(null);
      setError(e instanceof ReplayFileError ? `${file.name}: ${e.message}` : `${file.name} could not be read.`);
    }
  };

  return (
    <div className="space-y-4">
      <label
        data-testid="replay-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void read(e.dataTransfer.files[0]);
        }}
        className={`flex cursor-pointer flex-col items-center gap-2 rounded-xl border-2 border-dashed p-6 text-center ${over ? 'border-focus bg-highlight' : 'border-line-strong'}`}
      >
        <span>Drop a replay file here, or choose one</span>
        <input type="file" accept=".json,application/json,text/plain" data-testid="replay-file" onChange={(e) => void read(e.target.files?.[0])} className="text-sm" />
      </label>
      {error && (
        <p role="alert" data-testid="replay-file-error" className="rounded-lg bg-danger-bg px-3 py-2 text-sm text-on-danger-bg">
          {error}
        </p>
      )}
      {opened && (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold" data-testid="opened-replay">{opened.title} <span className="text-sm font-normal text-muted">({opened.name})</span></h2>
          <ReplayViewer key={opened.encoded} encoded={opened.encoded} path={opened.gameId ? `/replays/${opened.gameId}` : '/replays/open'} startAt={null} {...(opened.gameId ? { gameId: opened.gameId } : {})} />
        </section>
      )}
    </div>
  );
}
