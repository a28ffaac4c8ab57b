-- Daily boards (lib/periods): PersonalBest.period now also holds UTC days such as '2026-11-22'.
-- No table changes; this fills the daily bests of games stored before daily boards existed, so
-- past days read as they would have. The metric and the ranking rules are those of the modes at
-- this migration (Sprint ranks finished games by ticks; Marathon and Ultra by score, higher
-- better), the same as every best already stored. Held games and guests' games have no bests.
INSERT INTO "PersonalBest" ("userId", "mode", "period", "gameId", "metric", "achievedAt")
SELECT DISTINCT ON (g."userId", g."mode", to_char(g."createdAt", 'YYYY-MM-DD'))
       g."userId", g."mode", to_char(g."createdAt", 'YYYY-MM-DD'), g."id",
       CASE WHEN g."mode" = 'sprint' THEN g."ticks" ELSE -g."score" END, g."createdAt"
FROM "Game" g
WHERE g."userId" IS NOT NULL
  AND (g."mode" <> 'sprint' OR g."finished")
  AND (g."reviewStatus" IS NULL OR g."reviewStatus" = 'approved')
ORDER BY g."userId", g."mode", to_char(g."createdAt", 'YYYY-MM-DD'),
         CASE WHEN g."mode" = 'sprint' THEN g."ticks" ELSE -g."score" END, g."createdAt", g."id"
ON CONFLICT ("userId", "mode", "period") DO NOTHING;
