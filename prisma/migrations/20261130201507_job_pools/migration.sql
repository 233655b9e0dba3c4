-- CreateTable
CREATE TABLE "job_pools" (
    "pool_id" VARCHAR(64) NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_pools_pkey" PRIMARY KEY ("pool_id")
);
