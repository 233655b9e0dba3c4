-- CreateEnum
CREATE TYPE "PlayerKind" AS ENUM ('human', 'bot');

-- DropIndex
DROP INDEX "game_seats_player_id_idx";

-- AlterTable
ALTER TABLE "players" ADD COLUMN     "bot_level" VARCHAR(16),
ADD COLUMN     "kind" "PlayerKind" NOT NULL DEFAULT 'human';

-- AlterTable
ALTER TABLE "lobbies" ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "imported_by" UUID,
ADD COLUMN     "rated" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "rated_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "ratings" (
    "player_id" UUID NOT NULL,
    "family" VARCHAR(16) NOT NULL,
    "players" SMALLINT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "sigma" DOUBLE PRECISION NOT NULL,
    "ordinal" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("player_id","family","players")
);

-- CreateTable
CREATE TABLE "rating_changes" (
    "game_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "family" VARCHAR(16) NOT NULL,
    "players" SMALLINT NOT NULL,
    "place" SMALLINT NOT NULL,
    "mu_before" DOUBLE PRECISION NOT NULL,
    "sigma_before" DOUBLE PRECISION NOT NULL,
    "mu_after" DOUBLE PRECISION NOT NULL,
    "sigma_after" DOUBLE PRECISION NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rating_changes_pkey" PRIMARY KEY ("game_id","player_id")
);

-- CreateIndex
CREATE INDEX "ratings_family_players_ordinal_player_id_idx" ON "ratings"("family", "players", "ordinal" DESC, "player_id");

-- CreateIndex
CREATE INDEX "rating_changes_player_id_created_at_idx" ON "rating_changes"("player_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "games_created_at_id_idx" ON "games"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "games_preset_created_at_id_idx" ON "games"("preset", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "game_seats_player_id_game_id_idx" ON "game_seats"("player_id", "game_id");

-- AddForeignKey
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rating_changes" ADD CONSTRAINT "rating_changes_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
