/**
 * The look of the site's data tables (boards, match history, a match's stats), in one place: the
 * frame scrolls sideways on a narrow screen instead of squeezing the columns.
 */
export const TABLE_FRAME = 'relative overflow-x-auto rounded-xl border border-line';
export const TABLE_HEAD = 'bg-surface-2 text-xs uppercase tracking-wide text-muted';
