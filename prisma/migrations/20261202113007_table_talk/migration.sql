-- CreateEnum
CREATE TYPE "ChatRoomKind" AS ENUM ('players', 'spectators');

-- CreateEnum
CREATE TYPE "ChatReportStatus" AS ENUM ('open', 'resolved', 'dismissed');

-- AlterTable
ALTER TABLE "lobbies" ADD COLUMN     "spectators_see_table_chat" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "chat_rooms" (
    "id" UUID NOT NULL,
    "game_id" UUID,
    "lobby_id" UUID,
    "kind" "ChatRoomKind" NOT NULL,
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_rooms_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chat_messages" (
    "room_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "author_id" UUID NOT NULL,
    "body" VARCHAR(500) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("room_id","seq")
);

-- CreateTable
CREATE TABLE "chat_mutes" (
    "player_id" UUID NOT NULL,
    "muted_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chat_mutes_pkey" PRIMARY KEY ("player_id","muted_id")
);

-- CreateTable
CREATE TABLE "player_blocks" (
    "blocker_id" UUID NOT NULL,
    "blocked_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "player_blocks_pkey" PRIMARY KEY ("blocker_id","blocked_id")
);

-- CreateTable
CREATE TABLE "chat_reports" (
    "id" UUID NOT NULL,
    "room_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "reporter_id" UUID NOT NULL,
    "reason" VARCHAR(500) NOT NULL DEFAULT '',
    "context" JSONB NOT NULL,
    "status" "ChatReportStatus" NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "handled_at" TIMESTAMPTZ(3),
    "handled_by_id" UUID,

    CONSTRAINT "chat_reports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "chat_rooms_game_id_kind_key" ON "chat_rooms"("game_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "chat_rooms_lobby_id_kind_key" ON "chat_rooms"("lobby_id", "kind");

-- CreateIndex
CREATE INDEX "chat_messages_author_id_idx" ON "chat_messages"("author_id");

-- CreateIndex
CREATE INDEX "chat_mutes_muted_id_idx" ON "chat_mutes"("muted_id");

-- CreateIndex
CREATE INDEX "player_blocks_blocked_id_idx" ON "player_blocks"("blocked_id");

-- CreateIndex
CREATE INDEX "chat_reports_status_created_at_id_idx" ON "chat_reports"("status", "created_at", "id");

-- CreateIndex
CREATE INDEX "chat_reports_reporter_id_idx" ON "chat_reports"("reporter_id");

-- CreateIndex
CREATE INDEX "chat_reports_handled_by_id_idx" ON "chat_reports"("handled_by_id");

-- CreateIndex
CREATE UNIQUE INDEX "chat_reports_room_id_seq_reporter_id_key" ON "chat_reports"("room_id", "seq", "reporter_id");

-- AddForeignKey
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_game_id_fkey" FOREIGN KEY ("game_id") REFERENCES "games"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_rooms" ADD CONSTRAINT "chat_rooms_lobby_id_fkey" FOREIGN KEY ("lobby_id") REFERENCES "lobbies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_room_id_fkey" FOREIGN KEY ("room_id") REFERENCES "chat_rooms"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_mutes" ADD CONSTRAINT "chat_mutes_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_mutes" ADD CONSTRAINT "chat_mutes_muted_id_fkey" FOREIGN KEY ("muted_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_blocks" ADD CONSTRAINT "player_blocks_blocker_id_fkey" FOREIGN KEY ("blocker_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "player_blocks" ADD CONSTRAINT "player_blocks_blocked_id_fkey" FOREIGN KEY ("blocked_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_reports" ADD CONSTRAINT "chat_reports_room_id_seq_fkey" FOREIGN KEY ("room_id", "seq") REFERENCES "chat_messages"("room_id", "seq") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_reports" ADD CONSTRAINT "chat_reports_reporter_id_fkey" FOREIGN KEY ("reporter_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chat_reports" ADD CONSTRAINT "chat_reports_handled_by_id_fkey" FOREIGN KEY ("handled_by_id") REFERENCES "players"("id") ON DELETE SET NULL ON UPDATE CASCADE;
