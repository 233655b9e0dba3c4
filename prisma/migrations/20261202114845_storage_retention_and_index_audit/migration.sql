-- DropIndex
DROP INDEX "game_seats_player_id_game_id_idx";

-- CreateTable
CREATE TABLE "player_feed_trims" (
    "player_id" UUID NOT NULL,
    "tx" xid8 NOT NULL,
    "id" BIGINT NOT NULL,
    "trimmed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_feed_trims_pkey" PRIMARY KEY ("player_id")
);
