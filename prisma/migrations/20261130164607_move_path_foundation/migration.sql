-- AlterTable
ALTER TABLE "games" ADD COLUMN     "end_reason" VARCHAR(16),
ADD COLUMN     "end_seat" SMALLINT,
ADD COLUMN     "turn_deadline" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "game_events" ADD COLUMN     "actor" VARCHAR(8) NOT NULL DEFAULT 'player',
ADD COLUMN     "cause" VARCHAR(16);

-- CreateTable
CREATE TABLE "player_events" (
    "id" BIGSERIAL NOT NULL,
    "player_id" UUID NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "game_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox" (
    "id" BIGSERIAL NOT NULL,
    "game_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "entries" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "player_events_player_id_id_idx" ON "player_events"("player_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "player_events_player_id_game_id_seq_type_key" ON "player_events"("player_id", "game_id", "seq", "type");

-- AddForeignKey
ALTER TABLE "player_events" ADD CONSTRAINT "player_events_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Deals were always dealt by the system.
UPDATE "game_events" SET "actor" = 'system' WHERE "kind" = 'deal';
