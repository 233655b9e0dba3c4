-- AlterTable
-- A deal's seed and its hash as bytes (16 and 32) instead of their hex text (char(32), char(64)):
-- 48 bytes less a deal; the API still shows them as hex (games/dealing.ts: bytesHex, hexBytes).
-- Every stored value must be lowercase hex, so that the bytes give back the very text shown.
--
-- On a small deals table this converts in place: one rewrite of the table under its lock. On a
-- large one, an operator converts it online first (docs/operations.md, "Deals' seeds as bytes":
-- new columns filled by a trigger and in batches, then swapped in a short transaction), and this
-- migration, finding the columns already bytea, does nothing.
DO $$
BEGIN
  IF (SELECT data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'deals' AND column_name = 'seed') <> 'bytea' THEN
    IF EXISTS (SELECT 1 FROM "deals" WHERE "seed" !~ '^[0-9a-f]{32}$' OR "seed_hash" !~ '^[0-9a-f]{64}$') THEN
      RAISE EXCEPTION 'deals: a seed or seed hash that is not lowercase hex: it would not read back the same as bytes';
    END IF;
    ALTER TABLE "deals"
      ALTER COLUMN "seed" TYPE BYTEA USING decode("seed", 'hex'),
      ALTER COLUMN "seed_hash" TYPE BYTEA USING decode("seed_hash", 'hex');
  END IF;
END $$;
