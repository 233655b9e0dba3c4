-- CreateTable
CREATE TABLE "compact_logs" (
    "game_id" UUID NOT NULL,
    "entries" BYTEA NOT NULL,

    CONSTRAINT "compact_logs_pkey" PRIMARY KEY ("game_id")
);

-- CreateTable
CREATE TABLE "job_marks" (
    "name" VARCHAR(64) NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "job_marks_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "games_finished_at_id_idx" ON "games"("finished_at", "id");

-- AddForeignKey
ALTER TABLE "compact_logs" ADD CONSTRAINT "compact_logs_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;
