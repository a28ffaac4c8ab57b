import 'server-only';
import { Prisma } from '@/lib/generated/prisma/client';
import { CLEAR_CAP, CLEAR_SPAN, MODE_NAMES, MODES, type RankBy } from '@/lib/engine';

// The engine's metricOf and isRankable, over a row of "Game" (alias g), for queries that rank
// games themselves. Built from MODES, so they cannot disagree with the TypeScript versions.
const COLUMN: Record<RankBy, Prisma.Sql> = {
  time: Prisma.sql`g."ticks"`,
  score: Prisma.sql`g."score"`,
  clears: Prisma.sql`(LEAST(g."clears", ${CLEAR_CAP}) * ${CLEAR_SPAN} - LEAST(g."ticks", ${CLEAR_SPAN - 1}))`,
};

export const METRIC_SQL = Prisma.sql`CASE g."mode" ${Prisma.join(
  MODE_NAMES.map((mode) => {
    const { rankBy, better } = MODES[mode];
    return Prisma.sql`WHEN ${mode} THEN ${better === 'lower' ? Prisma.empty : Prisma.sql`-`}${COLUMN[rankBy]}`;
  }),
  ' ',
)} END`;

const needingFinish = MODE_NAMES.filter((mode) => MODES[mode].needsFinish);
export const RANKABLE_SQL =
  needingFinish.length === 0 ? Prisma.sql`TRUE` : Prisma.sql`(g."mode" NOT IN (${Prisma.join(needingFinish)}) OR g."finished")`;

/** describe.ts's `boardable` over a row of "Game" (alias g): not held for review, or approved. */
export const BOARDABLE_SQL = Prisma.sql`(g."reviewStatus" IS NULL OR g."reviewStatus" = 'approved')`;
