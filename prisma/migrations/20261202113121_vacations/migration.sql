-- AlterTable
ALTER TABLE "games" ADD COLUMN     "turn_paused_at" TIMESTAMPTZ(3),
ADD COLUMN     "turn_paused_deadline" TIMESTAMPTZ(3),
ADD COLUMN     "vacation_allowed" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "vacations" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "days" INTEGER,

    CONSTRAINT "vacations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "vacations_player_id_started_at_idx" ON "vacations"("player_id", "started_at" DESC);

-- AddForeignKey
ALTER TABLE "vacations" ADD CONSTRAINT "vacations_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
