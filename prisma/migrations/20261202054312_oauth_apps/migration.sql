-- AlterEnum
ALTER TYPE "TokenScope" ADD VALUE 'webhooks';

-- AlterTable
ALTER TABLE "auth_sessions" ADD COLUMN     "oauth_app_id" UUID;

-- CreateTable
CREATE TABLE "oauth_apps" (
    "id" UUID NOT NULL,
    "client_id" VARCHAR(64) NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" VARCHAR(60) NOT NULL,
    "redirect_uris" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_apps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_requests" (
    "id" UUID NOT NULL,
    "app_id" UUID NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "scopes" "TokenScope"[],
    "code_challenge" VARCHAR(128) NOT NULL,
    "state" VARCHAR(512),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_codes" (
    "id" UUID NOT NULL,
    "code_hash" CHAR(64) NOT NULL,
    "app_id" UUID NOT NULL,
    "player_id" UUID NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "scopes" "TokenScope"[],
    "code_challenge" VARCHAR(128) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "session_id" UUID,

    CONSTRAINT "oauth_codes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth_apps_client_id_key" ON "oauth_apps"("client_id");

-- CreateIndex
CREATE INDEX "oauth_apps_owner_id_created_at_idx" ON "oauth_apps"("owner_id", "created_at");

-- CreateIndex
CREATE INDEX "oauth_requests_expires_at_idx" ON "oauth_requests"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "oauth_codes_code_hash_key" ON "oauth_codes"("code_hash");

-- CreateIndex
CREATE INDEX "oauth_codes_expires_at_idx" ON "oauth_codes"("expires_at");

-- CreateIndex
CREATE INDEX "oauth_codes_app_id_idx" ON "oauth_codes"("app_id");

-- CreateIndex
CREATE INDEX "oauth_codes_player_id_idx" ON "oauth_codes"("player_id");

-- CreateIndex
CREATE INDEX "auth_sessions_oauth_app_id_idx" ON "auth_sessions"("oauth_app_id");

-- AddForeignKey
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_oauth_app_id_fkey" FOREIGN KEY ("oauth_app_id") REFERENCES "oauth_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_apps" ADD CONSTRAINT "oauth_apps_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_requests" ADD CONSTRAINT "oauth_requests_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "oauth_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_app_id_fkey" FOREIGN KEY ("app_id") REFERENCES "oauth_apps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "auth_sessions"("id") ON DELETE SET NULL ON UPDATE CASCADE;
