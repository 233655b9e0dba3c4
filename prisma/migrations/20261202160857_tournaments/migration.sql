-- CreateTable
CREATE TABLE "tournaments" (
    "id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "creator_id" UUID NOT NULL,
    "preset" VARCHAR(32) NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "format" VARCHAR(16) NOT NULL,
    "format_options" JSONB NOT NULL DEFAULT '{}',
    "table_size" SMALLINT NOT NULL,
    "time_control" JSONB,
    "vacation_allowed" BOOLEAN NOT NULL DEFAULT true,
    "starts_at" TIMESTAMPTZ(3),
    "min_players" SMALLINT NOT NULL,
    "max_players" SMALLINT NOT NULL,
    "rated" BOOLEAN NOT NULL DEFAULT false,
    "visibility" VARCHAR(8) NOT NULL DEFAULT 'public',
    "invite_code_hash" VARCHAR(64),
    "bot_level" VARCHAR(16),
    "status" VARCHAR(16) NOT NULL DEFAULT 'open',
    "round" SMALLINT NOT NULL DEFAULT 0,
    "standings" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tournaments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament_players" (
    "tournament_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "bot" BOOLEAN NOT NULL DEFAULT false,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "withdrawn_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_players_pkey" PRIMARY KEY ("tournament_id","player_id")
);

-- CreateTable
CREATE TABLE "tournament_rounds" (
    "tournament_id" UUID NOT NULL,
    "number" SMALLINT NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'running',
    "deadline" TIMESTAMPTZ(3),
    "byes" UUID[] DEFAULT ARRAY[]::UUID[],
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_rounds_pkey" PRIMARY KEY ("tournament_id","number")
);

-- CreateTable
CREATE TABLE "tournament_games" (
    "tournament_id" UUID NOT NULL,
    "round" SMALLINT NOT NULL,
    "table_no" SMALLINT NOT NULL,
    "game_id" UUID NOT NULL,
    "board" SMALLINT,
    "counted_at" TIMESTAMPTZ(3),

    CONSTRAINT "tournament_games_pkey" PRIMARY KEY ("tournament_id","round","table_no")
);

-- CreateIndex
CREATE UNIQUE INDEX "tournaments_invite_code_hash_key" ON "tournaments"("invite_code_hash");

-- CreateIndex
CREATE INDEX "tournaments_status_visibility_created_at_idx" ON "tournaments"("status", "visibility", "created_at");

-- CreateIndex
CREATE INDEX "tournament_players_player_id_idx" ON "tournament_players"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "tournament_games_game_id_key" ON "tournament_games"("game_id");

-- AddForeignKey
ALTER TABLE "tournament_players" ADD CONSTRAINT "tournament_players_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_rounds" ADD CONSTRAINT "tournament_rounds_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_games" ADD CONSTRAINT "tournament_games_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
