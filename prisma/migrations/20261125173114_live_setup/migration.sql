-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "liveSetup" JSONB;

