import type { PieceType } from '@/lib/engine';
import { FumenError, pagesText, type FumenPage, type Position } from '@/lib/fumen';

/**
 * A fumen page as a drill, the way fumen sites and four-tris play one: the page's field, its piece
 * entering at the top for the player to place, then the pieces of the pages after it (or the
 * page's quiz queue, with its hold). After them the sandbox deals random 7-bags, and says so.
 */
export interface FumenDrill {
  /** 0-based; shown 1-based, as fumen sites number pages. */
  page: number;
  pages: number;
  /** No placed piece: the queue's first piece spawns, so every piece is the player's to place. */
  position: Position;
  queueFrom: 'quiz' | 'pages';
}

export function fumenDrill(pages: readonly FumenPage[], page: number): FumenDrill {
  const p = pages[page];
  if (!p) throw new FumenError(`This fumen has ${pagesText(pages.length)}, so there is no page ${page + 1}.`);
  const position = { board: p.board, active: null, hold: p.quiz?.hold ?? null };
  if (p.quiz && (p.quiz.current || p.quiz.next.length > 0)) {
    const queue = p.quiz.current ? [p.quiz.current, ...p.quiz.next] : [...p.quiz.next];
    return { page, pages: pages.length, position: { ...position, queue }, queueFrom: 'quiz' };
  }
  return { page, pages: pages.length, position: { ...position, queue: piecesFrom(pages, page) }, queueFrom: 'pages' };
}

/**
 * The pieces placed from page `from` on. A piece fumen shows without locking it (a spin shown step
 * by step) is the same piece as the next page's, so a run of such pages is one piece.
 */
function piecesFrom(pages: readonly FumenPage[], from: number): PieceType[] {
  const out: PieceType[] = [];
  for (let i = from; i < pages.length; i++) {
    const piece = pages[i]!.piece;
    if (!piece) continue;
    if (!pages[i]!.lock && pages[i + 1]?.piece?.type === piece.type) continue;
    out.push(piece.type);
  }
  return out;
}

export const pageLabel = (d: FumenDrill): string => `Page ${d.page + 1} of ${d.pages}`;

/** The page one step away, or null past either end. */
export function pageStep(d: FumenDrill, step: -1 | 1): number | null {
  const to = d.page + step;
  return to >= 0 && to < d.pages ? to : null;
}

/** Where the queue stands: `left` fumen pieces after the one in play, the fumen's last in play, or past them. */
export type DrillQueue = { kind: 'fumen'; left: number } | { kind: 'last' } | { kind: 'bag' };

/** `taken`: pieces dealt so far, the one in play included (Game.taken); hold deals one too. */
export function drillQueue(d: FumenDrill, taken: number): DrillQueue {
  const left = d.position.queue.length - taken;
  if (left > 0) return { kind: 'fumen', left };
  return left === 0 ? { kind: 'last' } : { kind: 'bag' };
}

export function drillQueueText(q: DrillQueue): string {
  switch (q.kind) {
    case 'fumen':
      return `Next: ${q.left} more piece${q.left === 1 ? '' : 's'} from the fumen, then random 7-bag pieces.`;
    case 'last':
      return "This is the fumen's last piece: the next are random 7-bag pieces.";
    case 'bag':
      return "The fumen's pieces are used up: these are random 7-bag pieces.";
    default: {
      const unhandled: never = q;
      return unhandled;
    }
  }
}
