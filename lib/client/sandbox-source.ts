import { decodeReplay, type AnyMode, type Handling, type Snapshot } from '@/lib/engine';
import { emptyBoard, FUMEN_ROWS, fumenPages, piecesToFumen, positionToFumen, type Position } from '@/lib/fumen';
import { fumenDrill, type FumenDrill } from '@/lib/client/fumen-drill';
import { Sandbox } from '@/lib/client/sandbox';
import { gameAtTick, gameFromPosition, practiceSeed } from '@/lib/client/sandbox-start';

/** Where a practice sandbox starts; a fumen's page is 0-based. */
export type SandboxSource =
  | { kind: 'empty' }
  | { kind: 'fumen'; text: string; page: number }
  | { kind: 'position'; position: Position }
  /** A moment of a stored replay: a solo game's, or one seat's of a versus game (which plays on alone). */
  | { kind: 'replay'; encoded: string; tick: number };

/** A source that cannot be opened: the message says why, `fallback` is what to open instead. */
export class SandboxSourceError extends Error {
  override readonly name = 'SandboxSourceError';
  constructor(
    message: string,
    readonly fallback: SandboxSource = { kind: 'empty' },
  ) {
    super(message);
  }
}

export const EMPTY_POSITION: Position = { board: emptyBoard(), active: null, hold: null, queue: [] };

export interface OpenedSandbox {
  sandbox: Sandbox;
  mode: AnyMode;
  /** The fumen page being drilled; null for any other source. */
  drill: FumenDrill | null;
}

/**
 * The sandbox for a source, or a SandboxSourceError saying in words what is wrong with it. A
 * replay moment keeps the replay's own handling and mode (it continues that game); a position is
 * played with the player's handling; a fumen page is a drill whose pieces wait for a hard drop.
 */
export function openSandbox(source: SandboxSource, handling: Handling): OpenedSandbox {
  if (source.kind === 'fumen') return openFumen(source, handling);
  try {
    if (source.kind === 'replay') {
      const replay = decodeReplay(source.encoded);
      return { sandbox: new Sandbox(gameAtTick(replay, source.tick)), mode: replay.mode, drill: null };
    }
    const position = source.kind === 'position' ? source.position : EMPTY_POSITION;
    return { sandbox: new Sandbox(gameFromPosition(position, handling, practiceSeed())), mode: 'marathon', drill: null };
  } catch (error) {
    throw new SandboxSourceError(
      `${source.kind === 'replay' ? 'This replay cannot be opened' : 'This position cannot be played'}: ${messageOf(error)}`,
    );
  }
}

function openFumen(source: { kind: 'fumen'; text: string; page: number }, handling: Handling): OpenedSandbox {
  let pages;
  try {
    pages = fumenPages(source.text);
  } catch (error) {
    throw new SandboxSourceError(`This fumen cannot be played: ${messageOf(error)}`);
  }
  let drill: FumenDrill;
  try {
    drill = fumenDrill(pages, source.page);
  } catch (error) {
    // The fumen is fine, the link's page is not: its first page is the useful thing to show.
    throw new SandboxSourceError(`${messageOf(error).replace(/\.$/, '')}: here is page 1.`, source.page === 0 ? undefined : { ...source, page: 0 });
  }
  try {
    const game = gameFromPosition(drill.position, handling, practiceSeed(), 'hardDrop');
    return { sandbox: new Sandbox(game), mode: 'marathon', drill };
  } catch (error) {
    throw new SandboxSourceError(`Page ${source.page + 1} of this fumen cannot be played: ${messageOf(error)}`);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

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

/**
 * A link that opens a fumen in the sandbox (fumen data has `+` and `/`, so it is encoded), at a
 * 0-based page, written 1-based as fumen sites number pages.
 */
export function practiceLink(fumen: string, page?: number): string {
  return `/practice?fumen=${encodeURIComponent(fumen)}${page === undefined ? '' : `&page=${page + 1}`}`;
}

/**
 * The address for what the sandbox shows, so a reload or a shared link opens it again: a fumen at
 * its page; the address the page was opened with while its source is shown (a replay's moment);
 * plain `/practice` for anything opened since (a board from the editor is not in the address).
 * Null: leave the address as it is.
 */
export function practiceUrl(source: SandboxSource, opened: SandboxSource): string | null {
  if (source.kind === 'fumen') return practiceLink(source.text, source.page);
  return source === opened ? null : '/practice';
}
