import 'server-only';

/** Gives a slot back; only the first call counts, so every way out may call it. */
export type Slot = () => void;

/**
 * How many of something (open sockets, games hosted) each address holds, up to a limit. The slot
 * is taken at the check itself, before anything is awaited: counted only once the socket or game
 * existed, a burst from one address passed the check many times over while the first ones waited
 * on the session lookup or the ticket. Whoever took a slot gives it back when the step after the
 * check fails, or when the socket or game it stands for ends.
 */
export class AddressSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Null when `address` holds the limit already. */
  take(address: string): Slot | null {
    const n = this.held.get(address) ?? 0;
    if (n >= this.limit) return null;
    this.held.set(address, n + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.held.get(address) ?? 1) - 1;
      if (left > 0) this.held.set(address, left);
      else this.held.delete(address);
    };
  }

  count(address: string): number {
    return this.held.get(address) ?? 0;
  }
}
