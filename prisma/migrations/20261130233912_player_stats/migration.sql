-- Per-player aggregates of profiles and statistics (player_stats), and games.stats_at, the claim
-- that a finished game's figures were added to them (exactly once; see profiles/player-stats.sql.ts).
-- Cheap on a filled database: the column is added nullable (no rewrite), the table empty. Existing
-- finished games then have stats_at null: fill their figures with `npm run db:backfill-stats`.

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "stats_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "player_stats" (
    "player_id" UUID NOT NULL,
    "preset" VARCHAR(32) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "key" VARCHAR(16) NOT NULL,
    "games" INTEGER NOT NULL DEFAULT 0,
    "wins" INTEGER NOT NULL DEFAULT 0,
    "placed" INTEGER NOT NULL DEFAULT 0,
    "place_sum" INTEGER NOT NULL DEFAULT 0,
    "deals" INTEGER NOT NULL DEFAULT 0,
    "score_sum" INTEGER NOT NULL DEFAULT 0,
    "met" INTEGER NOT NULL DEFAULT 0,
    "exact" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "chosen" INTEGER NOT NULL DEFAULT 0,
    "chosen_met" INTEGER NOT NULL DEFAULT 0,
    "chosen_score_sum" INTEGER NOT NULL DEFAULT 0,
    "last_finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "player_stats_pkey" PRIMARY KEY ("player_id","preset","kind","key")
);

-- AddForeignKey
ALTER TABLE "player_stats" ADD CONSTRAINT "player_stats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
