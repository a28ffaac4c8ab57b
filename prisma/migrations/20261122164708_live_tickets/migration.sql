-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "live" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "liveUnranked" TEXT,
ADD COLUMN     "streamDigest" TEXT,
ADD COLUMN     "streamEndedAt" TIMESTAMP(3);

