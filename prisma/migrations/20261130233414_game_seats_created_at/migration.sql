-- A seat carries its game's created_at (the same value, written with the seat), so that a player's
-- games are read newest first from game_seats(player_id, created_at desc, game_id desc) instead of
-- fetching all of the player's games to sort them.
-- Safe on a filled database: the column is added nullable, filled from the games, then required.
-- The migration runs in one transaction, so no seat is written without it in between.

-- AlterTable
ALTER TABLE "game_seats" ADD COLUMN     "created_at" TIMESTAMPTZ(3);

UPDATE "game_seats" s SET "created_at" = g."created_at" FROM "games" g WHERE g."id" = s."game_id";

ALTER TABLE "game_seats" ALTER COLUMN "created_at" SET NOT NULL;

-- CreateIndex
CREATE INDEX "game_seats_player_id_created_at_game_id_idx" ON "game_seats"("player_id", "created_at" DESC, "game_id" DESC);
