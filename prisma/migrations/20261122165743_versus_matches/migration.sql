-- CreateTable
CREATE TABLE "VersusMatch" (
    "id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "ranked" BOOLEAN NOT NULL,
    "firstTo" INTEGER NOT NULL,
    "seed" TEXT NOT NULL,
    "rulesVersion" INTEGER NOT NULL,
    "winnerSeat" INTEGER NOT NULL,
    "endReason" TEXT NOT NULL,
    "week" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "VersusMatch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VersusSeat" (
    "matchId" TEXT NOT NULL,
    "seat" INTEGER NOT NULL,
    "userId" TEXT,
    "guestId" TEXT,
    "gamesWon" INTEGER NOT NULL,
    "won" BOOLEAN NOT NULL,
    "ratingBefore" DOUBLE PRECISION,
    "rdBefore" DOUBLE PRECISION,
    "ratingAfter" DOUBLE PRECISION,
    "rdAfter" DOUBLE PRECISION,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VersusSeat_pkey" PRIMARY KEY ("matchId","seat")
);

-- CreateTable
CREATE TABLE "VersusGame" (
    "matchId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "winnerSeat" INTEGER,
    "reason" TEXT NOT NULL,
    "endTick" INTEGER NOT NULL,
    "replay0" TEXT NOT NULL,
    "replay1" TEXT NOT NULL,
    "hash0" TEXT NOT NULL,
    "hash1" TEXT NOT NULL,

    CONSTRAINT "VersusGame_pkey" PRIMARY KEY ("matchId","index")
);

-- CreateTable
CREATE TABLE "VersusRating" (
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "rating" DOUBLE PRECISION NOT NULL,
    "rd" DOUBLE PRECISION NOT NULL,
    "vol" DOUBLE PRECISION NOT NULL,
    "matches" INTEGER NOT NULL,
    "wins" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VersusRating_pkey" PRIMARY KEY ("userId","mode")
);

-- CreateTable
CREATE TABLE "VersusWeeklyWins" (
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "week" TEXT NOT NULL,
    "wins" INTEGER NOT NULL,
    "lastWinAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VersusWeeklyWins_pkey" PRIMARY KEY ("userId","mode","week")
);

-- CreateIndex
CREATE INDEX "VersusMatch_mode_createdAt_idx" ON "VersusMatch"("mode", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "VersusSeat_userId_createdAt_idx" ON "VersusSeat"("userId", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "VersusRating_mode_rating_userId_idx" ON "VersusRating"("mode", "rating" DESC, "userId");

-- CreateIndex
CREATE INDEX "VersusWeeklyWins_mode_week_wins_lastWinAt_userId_idx" ON "VersusWeeklyWins"("mode", "week", "wins" DESC, "lastWinAt", "userId");

-- AddForeignKey
ALTER TABLE "VersusSeat" ADD CONSTRAINT "VersusSeat_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "VersusMatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VersusSeat" ADD CONSTRAINT "VersusSeat_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VersusGame" ADD CONSTRAINT "VersusGame_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "VersusMatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VersusRating" ADD CONSTRAINT "VersusRating_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VersusWeeklyWins" ADD CONSTRAINT "VersusWeeklyWins_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

