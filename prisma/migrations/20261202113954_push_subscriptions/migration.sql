-- CreateTable
CREATE TABLE "vapid_key_pairs" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "public_key" VARCHAR(100) NOT NULL,
    "private_key" VARCHAR(100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vapid_key_pairs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_subscriptions" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "endpoint" VARCHAR(2048) NOT NULL,
    "p256dh" VARCHAR(100) NOT NULL,
    "auth" VARCHAR(32) NOT NULL,
    "label" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_success_at" TIMESTAMPTZ(3),

    CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "push_sends" (
    "subscription_id" UUID NOT NULL,
    "feed_event_id" VARCHAR(40) NOT NULL,
    "queued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_sends_pkey" PRIMARY KEY ("subscription_id","feed_event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "push_subscriptions_player_id_endpoint_key" ON "push_subscriptions"("player_id", "endpoint");

-- CreateIndex
CREATE INDEX "push_sends_queued_at_idx" ON "push_sends"("queued_at");

-- AddForeignKey
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "push_sends" ADD CONSTRAINT "push_sends_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "push_subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
