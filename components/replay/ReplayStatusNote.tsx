import type { ReplayStatus } from '@/lib/server/games/replays';

// A held or rejected game is still a re-simulated replay, but its page must not call it verified.
const NOTES: Record<ReplayStatus, { label: string; title: string; className: string }> = {
  verified: {
    label: '✔ verified',
    title: 'The server re-simulated this replay and got exactly this result',
    className: '',
  },
  awaiting_review: {
    label: '⏳ awaiting review',
    title: 'Its key timing looked inhuman: it is on no board until a reviewer approves it',
    className: 'font-medium text-on-warning-bg',
  },
  rejected: {
    label: '✖ rejected by a reviewer',
    title: 'A reviewer judged its key timing not a person’s: it is on no board',
    className: 'font-medium text-danger',
  },
  unpaced: {
    label: '◌ unpaced',
    title: 'Verified, but not played over the live channel (the server did not deal its pieces or watch its clock): it is on no board',
    className: 'font-medium text-on-warning-bg',
  },
};

export function ReplayStatusNote({ status }: { status: ReplayStatus }) {
  const note = NOTES[status];
  return (
    <span data-testid="replay-status" title={note.title} className={note.className}>
      {note.label}
    </span>
  );
}
