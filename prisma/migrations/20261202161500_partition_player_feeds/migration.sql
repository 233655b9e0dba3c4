-- Players' feeds (player_events) partitioned by month of created_at (docs/decisions/partitions.md).
-- Hand-written: Prisma does not model partitioning. prisma/schema.prisma says what it can (the
-- primary key (id, created_at)); the rest (the partitions, each one's own unique index for
-- idempotent writes) is made here and by the partitions job (apps/api/src/retention/partitions.ts).
--
-- The table as it is becomes the partition of everything before `bound` (the first of next month,
-- UTC), and the months from `bound` on get partitions of their own. Done so, no row is copied: the
-- slow steps are an index and a CHECK's validation on the existing table. Inside this migration's
-- transaction they hold their locks to the end; on a large database run them beforehand, each on
-- its own, online (docs/operations.md, "Partitioning the feed"): this migration then finds them done.
SET LOCAL timezone = 'UTC';

-- 1. The partition key in the primary key: a unique index (id, created_at), made a constraint.
CREATE UNIQUE INDEX IF NOT EXISTS "player_events_id_created_at_key" ON "player_events" ("id", "created_at");

DO $$
DECLARE
  bound timestamptz;
  month timestamptz;
  name text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'player_events'::regclass AND conname = 'player_events_id_created_at_key') THEN
    ALTER TABLE "player_events" ADD CONSTRAINT "player_events_id_created_at_key" UNIQUE USING INDEX "player_events_id_created_at_key";
  END IF;

  -- 2. Every row before `bound`: a CHECK, validated (no write blocked), lets ATTACH skip its scan.
  SELECT substring(pg_get_constraintdef(oid) FROM '''([^'']+)''')::timestamptz INTO bound
    FROM pg_constraint WHERE conrelid = 'player_events'::regclass AND conname = 'player_events_partition_bound';
  IF bound IS NULL THEN
    bound := date_trunc('month', now()) + interval '1 month';
    EXECUTE format('ALTER TABLE "player_events" ADD CONSTRAINT "player_events_partition_bound" CHECK ("created_at" < %L) NOT VALID', bound);
  END IF;
  ALTER TABLE "player_events" VALIDATE CONSTRAINT "player_events_partition_bound";

  -- 3. The swap: the table renamed (its index names with it), the partitioned table made in its
  -- place with the same columns, sequence and indexes, the old table attached. Quick: catalog only.
  ALTER TABLE "player_events" RENAME TO "player_events_legacy";
  ALTER INDEX "player_events_pkey" RENAME TO "player_events_legacy_id_key";
  ALTER INDEX "player_events_player_id_tx_id_idx" RENAME TO "player_events_legacy_player_id_tx_id_idx";
  ALTER INDEX "player_events_player_id_game_id_seq_type_key" RENAME TO "player_events_legacy_player_id_game_id_seq_type_key";
  ALTER TABLE "player_events_legacy" RENAME CONSTRAINT "player_events_id_created_at_key" TO "player_events_legacy_pkey";
  -- PostgreSQL 18 names NOT NULL constraints after the table: the new table's must be free (none on 15).
  FOR name IN SELECT conname FROM pg_constraint WHERE conrelid = 'player_events_legacy'::regclass AND contype = 'n' LOOP
    EXECUTE format('ALTER TABLE "player_events_legacy" RENAME CONSTRAINT %I TO %I', name, replace(name, 'player_events_', 'player_events_legacy_'));
  END LOOP;

  CREATE TABLE "player_events" (
    "id" BIGINT NOT NULL DEFAULT nextval('player_events_id_seq'::regclass),
    "player_id" UUID NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "game_id" UUID,
    "seq" INTEGER,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lobby_id" UUID,
    "tx" xid8 NOT NULL DEFAULT pg_current_xact_id(),
    CONSTRAINT "player_events_pkey" PRIMARY KEY ("id", "created_at")
  ) PARTITION BY RANGE ("created_at");
  CREATE INDEX "player_events_player_id_tx_id_idx" ON "player_events" ("player_id", "tx", "id");
  ALTER TABLE "player_events" ADD CONSTRAINT "player_events_player_id_fkey"
    FOREIGN KEY ("player_id") REFERENCES "players"("id") ON DELETE CASCADE ON UPDATE CASCADE;
  -- The ids go on from where they were; the sequence now belongs to the new table (dropping the
  -- old partition some day must not drop it).
  ALTER SEQUENCE "player_events_id_seq" OWNED BY "player_events"."id";
  ALTER TABLE "player_events_legacy" ALTER COLUMN "id" DROP DEFAULT;

  -- The old primary key (id) goes first: PostgreSQL 18 makes the attached table's (id, created_at)
  -- its primary key and refuses a second one (15 let both stand).
  ALTER TABLE "player_events_legacy" DROP CONSTRAINT "player_events_legacy_id_key";
  EXECUTE format('ALTER TABLE "player_events" ATTACH PARTITION "player_events_legacy" FOR VALUES FROM (MINVALUE) TO (%L)', bound);
  -- What the partition bound now says.
  ALTER TABLE "player_events_legacy" DROP CONSTRAINT "player_events_partition_bound";

  -- 4. This month's and the next two months' partitions (the partitions job keeps two ahead), each
  -- with its unique (player_id, game_id, seq, type): feed writes are idempotent per partition.
  month := bound;
  WHILE month < date_trunc('month', now()) + interval '3 months' LOOP
    name := 'player_events_' || to_char(month, '"y"YYYY"m"MM');
    EXECUTE format('CREATE TABLE %I PARTITION OF "player_events" FOR VALUES FROM (%L) TO (%L)', name, month, month + interval '1 month');
    EXECUTE format('CREATE UNIQUE INDEX %I ON %I ("player_id", "game_id", "seq", "type")', name || '_player_id_game_id_seq_type_key', name);
    month := month + interval '1 month';
  END LOOP;
END $$;
