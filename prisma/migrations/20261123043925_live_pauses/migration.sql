-- AlterTable
ALTER TABLE "GameTicket" ADD COLUMN     "livePauses" INTEGER;

