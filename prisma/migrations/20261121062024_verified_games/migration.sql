-- AlterTable
ALTER TABLE "User" ADD COLUMN     "settings" JSONB;

-- CreateTable
CREATE TABLE "GameTicket" (
    "id" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "rulesVersion" INTEGER NOT NULL,
    "userId" TEXT,
    "guestId" TEXT,
    "issuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "GameTicket_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Game" (
    "id" TEXT NOT NULL,
    "ticketId" TEXT NOT NULL,
    "userId" TEXT,
    "guestId" TEXT,
    "guestExpiresAt" TIMESTAMP(3),
    "mode" TEXT NOT NULL,
    "score" INTEGER NOT NULL,
    "lines" INTEGER NOT NULL,
    "level" INTEGER NOT NULL,
    "ticks" INTEGER NOT NULL,
    "pieces" INTEGER NOT NULL,
    "keys" INTEGER NOT NULL,
    "pps" INTEGER NOT NULL,
    "kpp" INTEGER NOT NULL,
    "finished" BOOLEAN NOT NULL,
    "toppedOut" BOOLEAN NOT NULL,
    "replay" TEXT NOT NULL,
    "replayDigest" TEXT NOT NULL,
    "finalHash" TEXT NOT NULL,
    "rulesVersion" INTEGER NOT NULL,
    "week" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Game_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonalBest" (
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "period" TEXT NOT NULL,
    "gameId" TEXT NOT NULL,
    "metric" INTEGER NOT NULL,
    "achievedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PersonalBest_pkey" PRIMARY KEY ("userId","mode","period")
);

-- CreateTable
CREATE TABLE "RejectedSubmission" (
    "id" TEXT NOT NULL,
    "ticketId" TEXT,
    "userId" TEXT,
    "guestId" TEXT,
    "code" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RejectedSubmission_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "GameTicket_expiresAt_idx" ON "GameTicket"("expiresAt");

-- CreateIndex
CREATE INDEX "GameTicket_guestId_idx" ON "GameTicket"("guestId");

-- CreateIndex
CREATE UNIQUE INDEX "Game_ticketId_key" ON "Game"("ticketId");

-- CreateIndex
CREATE INDEX "Game_userId_mode_createdAt_idx" ON "Game"("userId", "mode", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Game_mode_createdAt_idx" ON "Game"("mode", "createdAt" DESC);

-- CreateIndex
CREATE INDEX "Game_guestId_idx" ON "Game"("guestId");

-- CreateIndex
CREATE INDEX "PersonalBest_mode_period_metric_achievedAt_gameId_idx" ON "PersonalBest"("mode", "period", "metric", "achievedAt", "gameId");

-- CreateIndex
CREATE INDEX "RejectedSubmission_createdAt_idx" ON "RejectedSubmission"("createdAt");

-- CreateIndex
CREATE INDEX "RejectedSubmission_userId_createdAt_idx" ON "RejectedSubmission"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "RejectedSubmission_code_createdAt_idx" ON "RejectedSubmission"("code", "createdAt");

-- AddForeignKey
ALTER TABLE "GameTicket" ADD CONSTRAINT "GameTicket_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Game" ADD CONSTRAINT "Game_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "GameTicket"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Game" ADD CONSTRAINT "Game_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonalBest" ADD CONSTRAINT "PersonalBest_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

