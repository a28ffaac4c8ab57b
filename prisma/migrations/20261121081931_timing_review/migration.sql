-- AlterTable
ALTER TABLE "Game" ADD COLUMN     "reviewMessage" TEXT,
ADD COLUMN     "reviewNote" TEXT,
ADD COLUMN     "reviewReason" TEXT,
ADD COLUMN     "reviewStatus" TEXT,
ADD COLUMN     "reviewedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Game_reviewStatus_createdAt_idx" ON "Game"("reviewStatus", "createdAt");

