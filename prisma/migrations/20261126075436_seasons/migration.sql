-- AlterTable
-- With a default, so an instance still running the code before this one (a rolling deploy) can
-- go on creating rating rows. Every rating so far belongs to season 1, which holds all time
-- before the calendar's first start (lib/versus/seasons.ts).
ALTER TABLE "VersusRating" ADD COLUMN     "season" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "VersusSeasonStanding" (
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "season" INTEGER NOT NULL,
    "finalRating" DOUBLE PRECISION NOT NULL,
    "finalBand" TEXT,
    "peakBand" TEXT,
    "peakRating" DOUBLE PRECISION NOT NULL,
    "matches" INTEGER NOT NULL,
    "wins" INTEGER NOT NULL,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "VersusSeasonStanding_pkey" PRIMARY KEY ("userId","mode","season")
);

-- CreateTable
CREATE TABLE "VersusSeasonRollover" (
    "season" INTEGER NOT NULL,
    "rolledAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VersusSeasonRollover_pkey" PRIMARY KEY ("season")
);

-- CreateIndex
CREATE INDEX "VersusSeasonStanding_mode_season_finalRating_userId_idx" ON "VersusSeasonStanding"("mode", "season", "finalRating" DESC, "userId");

-- AddForeignKey
ALTER TABLE "VersusSeasonStanding" ADD CONSTRAINT "VersusSeasonStanding_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Backfill: every player with a rated match so far has a season-1 standing, its counts all time
-- (season 1 holds everything before it); the peak band starts unknown (no band was stored).
INSERT INTO "VersusSeasonStanding" ("userId", "mode", "season", "finalRating", "peakRating", "matches", "wins")
SELECT "userId", "mode", 1, "rating", "rating", "matches", "wins" FROM "VersusRating" WHERE "matches" > 0;
