import type { Metadata } from 'next';
import { PageHeading } from '@/components/ui/PageHeading';
import { HUMAN_RANGE, JUMP, PROFILE } from '@/lib/server/integrity/rules';

export const metadata: Metadata = { title: 'Fair play' };

/** What the site measures to keep games fair, what a flag does and does not do, and what a player can do about a decision. */
export default function FairPlayPage() {
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeading>Fair play</PageHeading>
      <section aria-labelledby="proof-h" className="space-y-2">
        <h2 id="proof-h" className="text-xl font-semibold">Every ranked game is proven</h2>
        <p>
          The server deals the pieces, keeps the clock and plays every replay again before a score or a versus result is stored.
          A replay that does not produce its result is refused.
        </p>
      </section>
      <section aria-labelledby="measured-h" className="space-y-2">
        <h2 id="measured-h" className="text-xl font-semibold">What is measured</h2>
        <p>
          From the key presses of a signed-in player&rsquo;s stored games, solo and versus alike (a guest&rsquo;s, once an
          account claims them), the server keeps a few timing numbers, measured just after each game is stored:
        </p>
        <ul className="list-disc space-y-1 pl-6">
          <li>how long each tap is held, and how much that varies: a person&rsquo;s taps spread over several lengths, a program&rsquo;s do not;</li>
          <li>how soon the first key comes after each piece locks (the reaction to a new piece), and how much that varies;</li>
          <li>pieces and key presses per second over the whole game.</li>
        </ul>
        <p>
          A player is flagged when {PROFILE.minGamesOut} of their last {PROFILE.window} games in a mode leave the range the best
          human players reach (for example, more than {HUMAN_RANGE.maxPressesPerSecond} key presses a second over a whole game,
          or the same tap length for {HUMAN_RANGE.steadyTapShare * 100}% of taps), or when their last {PROFILE.recent} games are
          far faster than the ones before ({JUMP.ppsRatio}× the pieces per second, and at least {JUMP.minPpsGain} more).
        </p>
        <p>A single solo game whose timing looks inhuman is kept off the boards until a moderator has looked at it.</p>
      </section>
      <section aria-labelledby="flag-h" className="space-y-2">
        <h2 id="flag-h" className="text-xl font-semibold">A flag only asks a person to look</h2>
        <p>
          A flag never bans anyone and never takes a game off a board. It puts the player in the moderators&rsquo; queue with
          the numbers and the games behind it; a moderator watches the replays and dismisses or confirms it. Every decision
          is written, with its reason, to the moderators&rsquo; audit log, and no moderator decides about themselves.
        </p>
      </section>
      <section aria-labelledby="appeal-h" className="space-y-2">
        <h2 id="appeal-h" className="text-xl font-semibold">If a decision goes against you</h2>
        <p>
          A ban shows its reason on your account page, and you can still download your data there. A game held or rejected
          for its timing keeps its replay, and another moderator can approve it on a second look. There is no appeal form yet.
        </p>
      </section>
    </div>
  );
}
