import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Mode, PieceType } from '@/lib/engine';
import { playGame, type PiecePlan } from '@/tests/support/bot';

/** Opens a play page and waits for the countdown to end. */
export async function startGame(page: Page, mode: Mode): Promise<Locator> {
  await page.goto(`/play/${mode}`);
  const game = page.getByTestId('game');
  await expect(game).toHaveAttribute('data-phase', 'playing', { timeout: 20_000 });
  return game;
}

const attr = async (game: Locator, name: string) => (await game.getAttribute(name)) ?? '';

/**
 * Waits until the page has drawn `n` more animation frames: what "a moment later" means to a
 * game loop, however loaded the machine (a fixed sleep passes in fewer frames when it is).
 */
export async function frames(page: Page, n: number): Promise<void> {
  await page.evaluate(
    (count) => new Promise<void>((resolve) => {
      let left = count;
      const next = () => (--left <= 0 ? resolve() : requestAnimationFrame(next));
      requestAnimationFrame(next);
    }),
    n,
  );
}

let taps = 0;

/**
 * Presses one key, holds it 20–69 ms (varied as a person's are: the server holds back games whose
 * every tap lasts the same number of ticks, and 69 ms is well under the DAS that would auto-shift),
 * releases it and waits until the game has drawn its effect (the active piece or the piece count
 * changed, or the game left play), so every tap lands on its own tick and the input rate stays human.
 * A key only has something to change while the game is playing: tap() fails if it is not.
 */
export async function tap(page: Page, game: Locator, key: string, changes: 'active' | 'pieces' = 'active'): Promise<void> {
  const phase = await pressWhilePlaying(page, game, key, changes);
  expect(phase, `the game was playing when ${key} was to go down`).toBe('playing');
}

/**
 * tap() for a game that may have ended on its own: a piece that cannot leave the spawn rows locks
 * when its lock delay (30 ticks, half a second) runs out, no key needed, and the game is over. A
 * test that has just seen "playing" can find it "ended" by its next look at the page, once the
 * look takes longer than the lock delay (a loaded machine). Then nothing is pressed: a key on the
 * result screen means something else. Returns the phase the game was in when tap looked.
 */
export async function pressWhilePlaying(page: Page, game: Locator, key: string, changes: 'active' | 'pieces'): Promise<string> {
  const name = changes === 'pieces' ? 'data-pieces' : 'data-active';
  const [before, phase] = await game.evaluate((el, n) => [el.getAttribute(n) ?? '', el.getAttribute('data-phase') ?? ''], name);
  if (phase !== 'playing') return phase;
  await page.keyboard.down(key);
  // How long the finger stays down: an input, not a wait for anything.
  await page.waitForTimeout(20 + ((taps++ * 37) % 50));
  await page.keyboard.up(key);
  // Watched in the page, frame by frame, then two more frames so the release lands on a tick of
  // its own before the next press: one round trip to the browser instead of one per poll, which
  // on a loaded machine made a 40-line Sprint take most of its four minutes.
  const seen = await game.evaluate(
    (el, { n, was }) => new Promise<true | string>((resolve) => {
      // What the game showed when the tap had no effect: whether it waits for pieces, and how many it has.
      const state = () => ['data-phase', 'data-pieces', 'data-waiting'].map((a) => `${a}=${el.getAttribute(a)}`).join(' ') + ` dealt=${el.getAttribute('data-dealt')?.length}`;
      const giveUp = setTimeout(() => resolve(state()), 5_000);
      const changed = () => (el.getAttribute(n) ?? '') !== was || el.getAttribute('data-phase') !== 'playing';
      let after = 2;
      const frame = () => {
        if (after < 2 || changed()) after--;
        if (after < 0) {
          clearTimeout(giveUp);
          resolve(true);
        } else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    }),
    { n: name, was: before },
  );
  expect(seen, `${key} changed ${name} (was ${before}) within 5 s`).toBe(true);
  return phase;
}

const TURN_KEY = { rotateCW: 'KeyX', rotateCCW: 'KeyZ', rotate180: 'KeyA' } as const;
const DIR_KEY = { left: 'ArrowLeft', right: 'ArrowRight' } as const;

const column = async (game: Locator) => Number((await attr(game, 'data-active')).split(':')[2]);

/**
 * A tap is a key held 20–69 ms on the test's clock, but the page stamps the press and the release
 * when they reach the browser: on a loaded machine the release can arrive after the DAS (10 ticks,
 * 167 ms), and auto-repeat carries the piece a column or more too far, as it would for a player
 * whose finger stayed down. A player then taps back, and so does the test: the piece still has to
 * reach the planned column with real key presses before it drops, and the replay of whatever was
 * pressed is what the server verifies. Corrections are counted in the test's annotations.
 */
async function correctShift(page: Page, game: Locator, x: number): Promise<void> {
  for (let tries = 0; tries < 10; tries++) {
    const now = await column(game);
    if (now === x) return;
    test.info().annotations.push({ type: 'shift corrected', description: `column ${now}, planned ${x}` });
    await tap(page, game, now > x ? DIR_KEY.left : DIR_KEY.right);
  }
}

/** Types the bot's plan with the Guideline keys: hold, rotate, shift (taps or held to the wall), hard drop. */
export async function typePlan(page: Page, game: Locator, plan: readonly PiecePlan[]): Promise<void> {
  for (const [i, p] of plan.entries()) {
    if ((await attr(game, 'data-phase')) !== 'playing') throw new Error(`game left play before piece ${i}`);
    if (p.hold) await tap(page, game, 'KeyC');
    if (p.rotate) await tap(page, game, TURN_KEY[p.rotate]);
    if (p.shift && 'taps' in p.shift) {
      for (let t = 0; t < p.shift.taps; t++) await tap(page, game, DIR_KEY[p.shift.dir]);
      await correctShift(page, game, p.expect.x);
    } else if (p.shift) {
      // Held: DAS then auto-repeat carry the piece to the wall.
      await page.keyboard.down(DIR_KEY[p.shift.dir]);
      await expect.poll(async () => Number((await attr(game, 'data-active')).split(':')[2]), { timeout: 5_000, intervals: [5, 10] }).toBe(p.expect.x);
      await page.keyboard.up(DIR_KEY[p.shift.dir]);
      await frames(page, 2);
    }
    const active = (await attr(game, 'data-active')).split(':');
    expect(`${active[0]}:${active[1]}:${active[2]}`, `piece ${i} before its hard drop`).toBe(`${p.expect.type}:${p.expect.rotation}:${p.expect.x}`);
    await tap(page, game, 'Space', 'pieces');
  }
}

/** Counts canvas pixels painted in one of the standard piece colours, optionally in a part of the canvas (fractions). */
export async function pieceColourPixels(page: Page, area = { x0: 0, x1: 1, y0: 0, y1: 1 }): Promise<number> {
  return page.getByTestId('field').evaluate((canvas: HTMLCanvasElement, a) => {
    const colours = ['#22d3ee', '#facc15', '#a855f7', '#22c55e', '#ef4444', '#3b82f6', '#f97316'].map((h) => parseInt(h.slice(1), 16));
    const ctx = canvas.getContext('2d');
    if (!ctx) return -1;
    const x = Math.floor(a.x0 * canvas.width);
    const y = Math.floor(a.y0 * canvas.height);
    const { data } = ctx.getImageData(x, y, Math.ceil((a.x1 - a.x0) * canvas.width), Math.ceil((a.y1 - a.y0) * canvas.height));
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const rgb = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
      if (colours.includes(rgb)) n++;
    }
    return n;
  }, area);
}

/**
 * Hard drops straight down until the game tops out (a dozen pieces or so) and shows its result
 * (`ended` on the play page; a versus page says whether the set goes on).
 * The last piece may end the game by itself, between two drops (see pressWhilePlaying).
 */
export async function topOut(page: Page, game: Locator, ended: string | RegExp = 'ended'): Promise<void> {
  for (let i = 0; i < 80; i++) if ((await pressWhilePlaying(page, game, 'Space', 'pieces')) !== 'playing') break;
  await expect(game).toHaveAttribute('data-phase', ended);
}

/**
 * Plays a live game to its end: a live game has no seed in the browser, so each piece is planned
 * when it comes, from the pieces the server has dealt so far (the page shows them) and, in Dig,
 * the hole columns dealt so far. The bot's choice for a piece looks at most one piece ahead, and
 * the page always holds more.
 */
export async function playLive(page: Page, game: Locator, mode: Mode): Promise<void> {
  const handling = JSON.parse(await attr(game, 'data-handling'));
  for (let i = 0; (await attr(game, 'data-phase')) === 'playing'; i++) {
    const dealt = [...(await attr(game, 'data-dealt'))] as PieceType[];
    const holes = [...(await attr(game, 'data-holes'))].map(Number);
    const step = playGame({ mode, seed: 'unknown-until-the-end', handling, queue: dealt, ...(holes.length > 0 ? { holes } : {}), maxPieces: i + 1 }).plan[i];
    if (!step) throw new Error(`no plan for piece ${i} from ${dealt.length} dealt pieces`);
    await typePlan(page, game, [step]);
  }
}

/** playLive for a Sprint. */
export async function playLiveSprint(page: Page, game: Locator): Promise<void> {
  await playLive(page, game, 'sprint');
}
