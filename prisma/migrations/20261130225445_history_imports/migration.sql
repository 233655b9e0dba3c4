-- AlterTable
ALTER TABLE "games" ADD COLUMN     "seat_names" VARCHAR(64)[] DEFAULT ARRAY[]::VARCHAR(64)[];

-- AlterTable
ALTER TABLE "deals" ADD COLUMN     "deck" TEXT[],
ALTER COLUMN "seed" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "games_status_created_at_id_idx" ON "games"("status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "games_imported_by_created_at_id_idx" ON "games"("imported_by", "created_at" DESC, "id" DESC);
