-- AlterTable
ALTER TABLE "tournament_players" ADD COLUMN     "waiting_since" TIMESTAMPTZ(3);
