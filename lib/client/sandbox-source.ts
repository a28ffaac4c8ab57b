import { decodeSoloReplay, type Handling, type Mode, type Snapshot } from '@/lib/engine';
import { emptyBoard, FUMEN_ROWS, fumenToPosition, piecesToFumen, positionToFumen, type Position } from '@/lib/fumen';
import { Sandbox } from '@/lib/client/sandbox';
import { gameAtTick, gameFromPosition, practiceSeed } from '@/lib/client/sandbox-start';

/** Where a practice sandbox starts. */
export type SandboxSource =
  | { kind: 'empty' }
  | { kind: 'fumen'; text: string; page: number }
  | { kind: 'position'; position: Position }
  | { kind: 'replay'; encoded: string; tick: number };

export class SandboxSourceError extends Error {
  override readonly name = 'SandboxSourceError';
}

export const EMPTY_POSITION: Position = { board: emptyBoard(), active: null, hold: null, queue: [] };

/**
 * The sandbox for a source, or a SandboxSourceError saying in words what is wrong with it. A
 * replay moment keeps the replay's own handling and mode (it continues that game); a position is
 * played with the player's handling.
 */
export function openSandbox(source: SandboxSource, handling: Handling): { sandbox: Sandbox; mode: Mode } {
  try {
    if (source.kind === 'replay') {
      const replay = decodeSoloReplay(source.encoded);
      return { sandbox: new Sandbox(gameAtTick(replay, source.tick)), mode: replay.mode };
    }
    const position =
      source.kind === 'fumen' ? fumenToPosition(source.text, source.page) : source.kind === 'position' ? source.position : EMPTY_POSITION;
    return { sandbox: new Sandbox(gameFromPosition(position, handling, practiceSeed())), mode: 'marathon' };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SandboxSourceError(
      source.kind === 'replay' ? `This replay cannot be opened: ${message}` : `This position cannot be played: ${message}`,
    );
  }
}

/** A snapshot as a fumen-sized position (the hidden rows above the visible 20 are empty in it). */
export function snapshotPosition(snap: Snapshot): Position {
  return {
    board: [...emptyBoard().slice(0, FUMEN_ROWS - snap.board.length), ...snap.board],
    active: snap.active,
    hold: snap.hold,
    queue: [...snap.next],
  };
}

/** The sandbox's current position, or its start and every piece placed since as pages. */
export function exportFumen(sandbox: Sandbox, allPages: boolean): string {
  if (allPages && sandbox.placed.length > 0) return piecesToFumen(snapshotPosition(sandbox.startSnapshot()), sandbox.placed);
  return positionToFumen(snapshotPosition(sandbox.snapshot()));
}

/** A link that opens a fumen in the sandbox (fumen data has `+` and `/`, so it is encoded). */
export function practiceLink(fumen: string): string {
  return `/practice?fumen=${encodeURIComponent(fumen)}`;
}
