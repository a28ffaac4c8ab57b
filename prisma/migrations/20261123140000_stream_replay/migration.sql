-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "streamReplay" TEXT;
