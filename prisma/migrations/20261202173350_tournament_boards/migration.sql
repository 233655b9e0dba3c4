-- CreateTable
CREATE TABLE "tournament_boards" (
    "tournament_id" UUID NOT NULL,
    "number" SMALLINT NOT NULL,
    "board_id" UUID NOT NULL,
    "seed" CHAR(32) NOT NULL,
    "seed_hash" CHAR(64) NOT NULL,
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_boards_pkey" PRIMARY KEY ("tournament_id","number")
);

-- CreateIndex
CREATE UNIQUE INDEX "tournament_boards_board_id_key" ON "tournament_boards"("board_id");

-- AddForeignKey
ALTER TABLE "tournament_boards" ADD CONSTRAINT "tournament_boards_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
