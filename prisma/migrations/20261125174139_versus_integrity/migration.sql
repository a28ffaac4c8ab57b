-- AlterTable
ALTER TABLE "VersusMatch" ADD COLUMN     "noContest" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "voidReason" TEXT,
ADD COLUMN     "voidedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "ModerationAction" ADD COLUMN     "matchId" TEXT;

-- CreateTable
CREATE TABLE "VersusSighting" (
    "userId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VersusSighting_pkey" PRIMARY KEY ("userId","key")
);

-- CreateIndex
CREATE INDEX "VersusSighting_key_lastSeenAt_idx" ON "VersusSighting"("key", "lastSeenAt");

-- CreateIndex
CREATE INDEX "VersusSighting_lastSeenAt_idx" ON "VersusSighting"("lastSeenAt");

-- AddForeignKey
ALTER TABLE "VersusSighting" ADD CONSTRAINT "VersusSighting_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

