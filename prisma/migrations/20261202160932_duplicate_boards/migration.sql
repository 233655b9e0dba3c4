-- AlterTable
ALTER TABLE "games" ADD COLUMN     "board_id" UUID,
ADD COLUMN     "board_seed" CHAR(32),
ADD COLUMN     "reveal_held" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "games_board_id_idx" ON "games"("board_id");
