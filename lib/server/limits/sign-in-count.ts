import 'server-only';
import { hit, type Check, type Verdict } from '@/lib/server/limits/limiter';

/** What one sign-in attempt counted, so a success can give the account's slots back. */
export type SignInCount = { verdict: Verdict; counted: Check[] };

/**
 * Counts one credentials sign-in attempt for `account` from `address`, before any password is
 * hashed. A browser holding the account's device cookie (`trusted`) skips the account rules.
 *
 * Two steps, not one statement: the account-wide rule counts only attempts that got past the
 * per-account-and-address rule. Counted together, one address guessing every ~21 s stayed under
 * its own limits while its refused guesses filled the account-wide 100/hour, and so locked the
 * owner out of every browser without a device cookie. Now one address adds at most 5 per 15
 * minutes to the account-wide count; reaching it takes ~20 addresses guessing at once.
 */
export async function countSignInAttempt(options: { address: string; account: string | null; trusted: boolean; now?: Date }): Promise<SignInCount> {
  const { address, account, trusted, now } = options;
  if (!account || trusted) return { verdict: { ok: true }, counted: [] };
  const fromHere: Check = { rule: 'signInAccountAddress', subject: `${account}@${address}` };
  const here = await hit([fromHere], now);
  if (!here.ok) return { verdict: here, counted: [fromHere] };
  const everywhere: Check = { rule: 'signInAccount', subject: account };
  return { verdict: await hit([everywhere], now), counted: [fromHere, everywhere] };
}
