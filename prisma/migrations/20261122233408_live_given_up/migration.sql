-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "liveGivenUpAt" TIMESTAMP(3);

