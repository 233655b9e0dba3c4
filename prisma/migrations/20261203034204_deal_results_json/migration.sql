-- AlterTable
-- A deal's results (tricks and scores per seat) as json, the text as written ("[4,1,5]", 8 bytes),
-- instead of jsonb (41 bytes for an array of three numbers: a header, an entry per element, each
-- number as numeric); and its seed hash nullable: compaction drops it where it is its seed's own
-- SHA-256, which the readers then compute. Together about 0.9 kB of a finished short game.
--
-- Converted values are written without jsonb's spaces when they hold no string (the spaces are then
-- all between tokens: every value the server writes, arrays of numbers and nulls), else as jsonb
-- prints them. On a small deals table this converts
-- in place: one rewrite of the table under its lock. On a large one, an operator converts it
-- online first (docs/operations.md, "Deals' results as json": new columns filled by a trigger and
-- in batches, then swapped in a short transaction), and this migration, finding the columns
-- already json, only makes the hash nullable (a catalog change).
ALTER TABLE "deals" ALTER COLUMN "seed_hash" DROP NOT NULL;

DO $$
BEGIN
  IF (SELECT data_type FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name = 'deals' AND column_name = 'tricks') = 'jsonb' THEN
    ALTER TABLE "deals"
      ALTER COLUMN "tricks" SET DATA TYPE JSON
        USING (CASE WHEN strpos("tricks"::text, '"') = 0 THEN replace("tricks"::text, ' ', '') ELSE "tricks"::text END)::json,
      ALTER COLUMN "scores" SET DATA TYPE JSON
        USING (CASE WHEN strpos("scores"::text, '"') = 0 THEN replace("scores"::text, ' ', '') ELSE "scores"::text END)::json;
  END IF;
END $$;
