'use client';

import { replayFileName, replayFileText } from '@/lib/client/replay-file';
import { Button } from '@/components/ui/Button';

/** Saves this replay as a small file that the viewer opens again from disk (/replays/open). */
export function DownloadReplay(props: { encoded: string; gameId: string; mode: string; player: string | null; createdAt: string }) {
  const download = () => {
    const text = replayFileText(props.encoded, { id: props.gameId, player: props.player, createdAt: props.createdAt });
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = replayFileName(props.mode, props.player, props.gameId);
    a.click();
    // After the click has handed the blob to the download.
    window.setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Button data-testid="download-replay" onClick={download}>
      Download this game
    </Button>
  );
}
