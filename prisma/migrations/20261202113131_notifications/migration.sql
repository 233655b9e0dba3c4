-- CreateTable
CREATE TABLE "notification_settings" (
    "player_id" UUID NOT NULL,
    "push_kinds" VARCHAR(16)[],
    "email_kinds" VARCHAR(16)[],
    "kinds_set" BOOLEAN NOT NULL DEFAULT false,
    "email_mode" VARCHAR(16),
    "digest_minutes" INTEGER,
    "quiet_start" SMALLINT,
    "quiet_end" SMALLINT,
    "time_zone" VARCHAR(64),
    "active_minutes" INTEGER,
    "last_active_at" TIMESTAMPTZ(3),
    "cursor_tx" xid8 NOT NULL DEFAULT '0'::xid8,
    "cursor_id" BIGINT NOT NULL DEFAULT 0,
    "last_digest_at" TIMESTAMPTZ(3),
    "unsubscribe_token" VARCHAR(64),
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_settings_pkey" PRIMARY KEY ("player_id")
);

-- CreateTable
CREATE TABLE "notice_sends" (
    "id" BIGSERIAL NOT NULL,
    "channel" VARCHAR(8) NOT NULL,
    "player_id" UUID NOT NULL,
    "feed_event_id" VARCHAR(48) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "game_id" UUID,
    "notice" JSONB NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "status" VARCHAR(8) NOT NULL,
    "reason" VARCHAR(16),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "notice_sends_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "notification_settings_unsubscribe_token_key" ON "notification_settings"("unsubscribe_token");

-- CreateIndex
CREATE INDEX "notice_sends_player_id_status_due_at_idx" ON "notice_sends"("player_id", "status", "due_at");

-- CreateIndex
CREATE UNIQUE INDEX "notice_sends_channel_player_id_feed_event_id_key" ON "notice_sends"("channel", "player_id", "feed_event_id");

-- AddForeignKey
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notice_sends" ADD CONSTRAINT "notice_sends_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
