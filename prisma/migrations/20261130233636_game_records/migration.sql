-- CreateTable
CREATE TABLE "game_records" (
    "game_id" UUID NOT NULL,
    "record" JSON NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_records_pkey" PRIMARY KEY ("game_id")
);

-- AddForeignKey
ALTER TABLE "game_records" ADD CONSTRAINT "game_records_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
