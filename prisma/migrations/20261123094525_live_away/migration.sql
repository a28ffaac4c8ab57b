-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "liveAwayMs" INTEGER;

