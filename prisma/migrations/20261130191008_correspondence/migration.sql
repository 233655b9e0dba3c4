-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'delivered', 'failed');

-- DropIndex
DROP INDEX "player_events_player_id_id_idx";

-- AlterTable
ALTER TABLE "lobbies" ADD COLUMN     "time_control" JSONB;

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "bank_ms" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "time_control" JSONB,
ADD COLUMN     "timeouts" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
ADD COLUMN     "turn_started_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "game_events" ADD COLUMN     "deadline" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "player_events" ADD COLUMN     "lobby_id" UUID,
ADD COLUMN     "tx" xid8 NOT NULL DEFAULT pg_current_xact_id(),
ALTER COLUMN "game_id" DROP NOT NULL,
ALTER COLUMN "seq" DROP NOT NULL;

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "description" VARCHAR(256),
    "event_types" TEXT[],
    "secret" VARCHAR(64) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" VARCHAR(512),
    "disabled_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "cursor" VARCHAR(48),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" BIGINT NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "delivery_id" UUID NOT NULL,
    "attempt" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" SMALLINT,
    "duration_ms" INTEGER NOT NULL,
    "error" VARCHAR(512),

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("delivery_id","attempt")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_player_id_idx" ON "webhook_endpoints"("player_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");

-- CreateIndex
CREATE INDEX "player_events_player_id_tx_id_idx" ON "player_events"("player_id", "tx", "id");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
