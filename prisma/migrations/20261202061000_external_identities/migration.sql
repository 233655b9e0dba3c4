-- Players who sign in with a trusted identity provider's JWT (IDENTITY_ISSUERS): one row per
-- issuer and subject, made on the first use. A new table, so adding it rewrites no row.

-- CreateTable
CREATE TABLE "external_identities" (
    "issuer" VARCHAR(512) NOT NULL,
    "subject" VARCHAR(255) NOT NULL,
    "player_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "external_identities_pkey" PRIMARY KEY ("issuer","subject")
);

-- CreateIndex
CREATE INDEX "external_identities_player_id_idx" ON "external_identities"("player_id");

-- AddForeignKey
ALTER TABLE "external_identities" ADD CONSTRAINT "external_identities_player_id_fkey" FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
