-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "paused_until" TIMESTAMPTZ(3),
ADD COLUMN     "previous_secret" VARCHAR(64),
ADD COLUMN     "previous_secret_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "timeouts" INTEGER NOT NULL DEFAULT 0;
