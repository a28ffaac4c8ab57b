-- CreateTable
CREATE TABLE "GameFeatures" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "gameId" TEXT,
    "matchId" TEXT,
    "gameIndex" INTEGER,
    "seat" INTEGER,
    "pieces" INTEGER NOT NULL,
    "presses" INTEGER NOT NULL,
    "ticks" INTEGER NOT NULL,
    "pps" DOUBLE PRECISION NOT NULL,
    "pressesPerSecond" DOUBLE PRECISION NOT NULL,
    "reactionTicks" INTEGER,
    "reactionShare" DOUBLE PRECISION NOT NULL,
    "taps" INTEGER NOT NULL,
    "tapShare" DOUBLE PRECISION NOT NULL,
    "rhythmRun" INTEGER NOT NULL,
    "peakPps" DOUBLE PRECISION,
    "playedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GameFeatures_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IntegrityFlag" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "evidence" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "openKey" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "IntegrityFlag_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "GameFeatures_gameId_key" ON "GameFeatures"("gameId");

-- CreateIndex
CREATE INDEX "GameFeatures_userId_mode_playedAt_idx" ON "GameFeatures"("userId", "mode", "playedAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "GameFeatures_matchId_gameIndex_seat_key" ON "GameFeatures"("matchId", "gameIndex", "seat");

-- CreateIndex
CREATE UNIQUE INDEX "IntegrityFlag_openKey_key" ON "IntegrityFlag"("openKey");

-- CreateIndex
CREATE INDEX "IntegrityFlag_status_createdAt_idx" ON "IntegrityFlag"("status", "createdAt");

-- CreateIndex
CREATE INDEX "IntegrityFlag_userId_idx" ON "IntegrityFlag"("userId");

-- AddForeignKey
ALTER TABLE "GameFeatures" ADD CONSTRAINT "GameFeatures_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GameFeatures" ADD CONSTRAINT "GameFeatures_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GameFeatures" ADD CONSTRAINT "GameFeatures_matchId_fkey" FOREIGN KEY ("matchId") REFERENCES "VersusMatch"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IntegrityFlag" ADD CONSTRAINT "IntegrityFlag_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

