-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "LobbyVisibility" AS ENUM ('public', 'unlisted');

-- CreateEnum
CREATE TYPE "LobbyStatus" AS ENUM ('open', 'started', 'closed');

-- CreateEnum
CREATE TYPE "GameStatus" AS ENUM ('active', 'finished');

-- CreateTable
CREATE TABLE "players" (
    "id" UUID NOT NULL,
    "name" VARCHAR(32) NOT NULL,
    "name_key" VARCHAR(32) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "players_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lobbies" (
    "id" UUID NOT NULL,
    "preset" VARCHAR(32) NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "players" SMALLINT NOT NULL,
    "visibility" "LobbyVisibility" NOT NULL DEFAULT 'public',
    "invite_code" VARCHAR(16) NOT NULL,
    "host_id" UUID NOT NULL,
    "status" "LobbyStatus" NOT NULL DEFAULT 'open',
    "previous_game_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "lobbies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lobby_seats" (
    "lobby_id" UUID NOT NULL,
    "seat" SMALLINT NOT NULL,
    "player_id" UUID NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lobby_seats_pkey" PRIMARY KEY ("lobby_id","seat")
);

-- CreateTable
CREATE TABLE "games" (
    "id" UUID NOT NULL,
    "lobby_id" UUID,
    "preset" VARCHAR(32) NOT NULL,
    "options" JSONB NOT NULL DEFAULT '{}',
    "players" SMALLINT NOT NULL,
    "first_dealer" SMALLINT NOT NULL,
    "status" "GameStatus" NOT NULL DEFAULT 'active',
    "version" INTEGER NOT NULL DEFAULT 0,
    "phase" VARCHAR(16) NOT NULL,
    "deal_index" INTEGER NOT NULL DEFAULT 0,
    "to_move" SMALLINT,
    "state" JSONB NOT NULL,
    "totals" INTEGER[],
    "winners" INTEGER[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "games_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "game_seats" (
    "game_id" UUID NOT NULL,
    "seat" SMALLINT NOT NULL,
    "player_id" UUID NOT NULL,
    "total" INTEGER,
    "place" SMALLINT,

    CONSTRAINT "game_seats_pkey" PRIMARY KEY ("game_id","seat")
);

-- CreateTable
CREATE TABLE "game_events" (
    "game_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "deal_index" INTEGER NOT NULL,
    "seat" SMALLINT,
    "player_id" UUID,
    "move" JSONB,
    "events" JSONB NOT NULL,
    "idempotency_key" VARCHAR(128),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "game_events_pkey" PRIMARY KEY ("game_id","seq")
);

-- CreateTable
CREATE TABLE "deals" (
    "game_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "dealer" SMALLINT NOT NULL,
    "seed" CHAR(32) NOT NULL,
    "seed_hash" CHAR(64) NOT NULL,
    "contract" VARCHAR(16),
    "declarer" SMALLINT,
    "bid" VARCHAR(16),
    "trump" VARCHAR(16),
    "tricks" JSONB,
    "scores" JSONB,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "deals_pkey" PRIMARY KEY ("game_id","index")
);

-- CreateTable
CREATE TABLE "tricks" (
    "game_id" UUID NOT NULL,
    "deal_index" INTEGER NOT NULL,
    "index" SMALLINT NOT NULL,
    "leader" SMALLINT NOT NULL,
    "cards" TEXT[],
    "winner" SMALLINT NOT NULL,

    CONSTRAINT "tricks_pkey" PRIMARY KEY ("game_id","deal_index","index")
);

-- CreateIndex
CREATE UNIQUE INDEX "players_name_key_key" ON "players"("name_key");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_player_id_idx" ON "api_tokens"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "lobbies_invite_code_key" ON "lobbies"("invite_code");

-- CreateIndex
CREATE INDEX "lobbies_status_visibility_preset_created_at_idx" ON "lobbies"("status", "visibility", "preset", "created_at");

-- CreateIndex
CREATE INDEX "lobby_seats_player_id_idx" ON "lobby_seats"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "lobby_seats_lobby_id_player_id_key" ON "lobby_seats"("lobby_id", "player_id");

-- CreateIndex
CREATE UNIQUE INDEX "games_lobby_id_key" ON "games"("lobby_id");

-- CreateIndex
CREATE INDEX "games_status_updated_at_idx" ON "games"("status", "updated_at");

-- CreateIndex
CREATE INDEX "game_seats_player_id_idx" ON "game_seats"("player_id");

-- CreateIndex
CREATE UNIQUE INDEX "game_seats_game_id_player_id_key" ON "game_seats"("game_id", "player_id");

-- CreateIndex
CREATE UNIQUE INDEX "game_events_game_id_player_id_idempotency_key_key" ON "game_events"("game_id", "player_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lobbies" ADD CONSTRAINT "lobbies_host_id_fkey" FOREIGN KEY ("host_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lobby_seats" ADD CONSTRAINT "lobby_seats_lobby_id_fkey" FOREIGN KEY ("lobby_id") REFERENCES "lobbies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lobby_seats" ADD CONSTRAINT "lobby_seats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "games" ADD CONSTRAINT "games_lobby_id_fkey" FOREIGN KEY ("lobby_id") REFERENCES "lobbies"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_seats" ADD CONSTRAINT "game_seats_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_seats" ADD CONSTRAINT "game_seats_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deals" ADD CONSTRAINT "deals_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tricks" ADD CONSTRAINT "tricks_game_id_deal_index_fkey" FOREIGN KEY ("game_id", "deal_index") REFERENCES "deals"("game_id", "index") ON DELETE CASCADE ON UPDATE CASCADE;
