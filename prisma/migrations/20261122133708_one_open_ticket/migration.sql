-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "abandonedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "AbandonCount" (
    "userId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "AbandonCount_pkey" PRIMARY KEY ("userId","mode")
);

-- CreateIndex
CREATE INDEX "GameTicket_userId_mode_idx" ON "GameTicket"("userId", "mode");

-- AddForeignKey
ALTER TABLE "AbandonCount" ADD CONSTRAINT "AbandonCount_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

