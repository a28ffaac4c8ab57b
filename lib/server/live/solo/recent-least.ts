/**
 * The least of the values added within `windowMs` of the latest one (a solo game's lag at each
 * batch, GameHost): a value that spiked last (a batch held up on a failing link) does not stand
 * for the rest. About one entry per batch in the window, so a couple of dozen.
 */
export class RecentLeast {
  private readonly at: number[] = [];
  private readonly values: number[] = [];

  constructor(private readonly windowMs: number) {}

  add(at: number, value: number): void {
    this.at.push(at);
    this.values.push(value);
    while (this.at[0]! < at - this.windowMs) {
      this.at.shift();
      this.values.shift();
    }
  }

  /** The least of the values kept, or null before the first. */
  least(): number | null {
    return this.values.length === 0 ? null : Math.min(...this.values);
  }
}
