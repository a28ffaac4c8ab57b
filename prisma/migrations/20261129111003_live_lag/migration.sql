-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "liveLagMs" INTEGER;

