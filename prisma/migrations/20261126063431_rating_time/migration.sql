-- AlterTable
ALTER TABLE "VersusSeat" ADD COLUMN     "matchesBefore" INTEGER;

-- AlterTable
-- With a default, so an instance still running the code before this one (a rolling deploy) can
-- go on creating rating rows; every row is backfilled below.
ALTER TABLE "VersusRating" ADD COLUMN     "ratedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- Backfill: each ranked seat's count of its player's rated matches in the mode before it, as they
-- stood when it was played: a match counted for a seat unless that seat won it as no contest, and
-- a match voided before this one was played no longer counted.
UPDATE "VersusSeat" s SET "matchesBefore" = (
  SELECT count(*) FROM "VersusSeat" e JOIN "VersusMatch" em ON em."id" = e."matchId"
  WHERE e."userId" = s."userId" AND em."mode" = m."mode" AND em."ranked"
    AND NOT (e."won" AND em."noContest")
    AND (em."createdAt", em."id") < (m."createdAt", m."id")
    AND (em."voidedAt" IS NULL OR em."voidedAt" > m."createdAt"))
FROM "VersusMatch" m
WHERE m."id" = s."matchId" AND m."ranked" AND s."userId" IS NOT NULL;

-- Backfill: the idle clock starts at the player's last rated match in the mode (voided or not: a
-- void leaves the clock where it was), or at the row's last write when no such seat is left.
UPDATE "VersusRating" r SET "ratedAt" = COALESCE((
  SELECT max(s."createdAt") FROM "VersusSeat" s JOIN "VersusMatch" m ON m."id" = s."matchId"
  WHERE s."userId" = r."userId" AND m."mode" = r."mode" AND m."ranked" AND NOT (s."won" AND m."noContest")), r."updatedAt");
