-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "liveAckDigest" TEXT,
ADD COLUMN     "liveAckInputs" INTEGER,
ADD COLUMN     "liveAckTick" INTEGER;

