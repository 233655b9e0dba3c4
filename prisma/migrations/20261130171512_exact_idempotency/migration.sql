-- AlterTable
ALTER TABLE "game_events" ADD COLUMN     "request_hash" CHAR(64),
ADD COLUMN     "response" JSONB;
