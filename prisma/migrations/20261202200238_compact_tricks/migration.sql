-- A compacted game's tricks as one bytea per deal (deals.played_tricks), read with the other games'
-- rows through the view `tricks` (issue 30). Hand-edited: Prisma would drop and re-create the
-- table; it is renamed instead, its rows kept. Prisma does not model views: schema.prisma says the
-- table (live_tricks) and the column; the views are here only (prisma/migrations.test.ts checks them).

-- The rows of the games not compacted yet: the table renamed, its keys with it.
ALTER TABLE "tricks" RENAME TO "live_tricks";
ALTER TABLE "live_tricks" RENAME CONSTRAINT "tricks_pkey" TO "live_tricks_pkey";
ALTER TABLE "live_tricks" RENAME CONSTRAINT "tricks_game_id_deal_index_fkey" TO "live_tricks_game_id_deal_index_fkey";
-- PostgreSQL 18 names NOT NULL constraints too (tricks_game_id_not_null, …); earlier releases have none.
DO $$
DECLARE c record;
BEGIN
  FOR c IN SELECT conname FROM pg_constraint WHERE conrelid = '"live_tricks"'::regclass AND contype = 'n' AND conname LIKE 'tricks\_%' LOOP
    EXECUTE format('ALTER TABLE "live_tricks" RENAME CONSTRAINT %I TO %I', c.conname, 'live_' || c.conname);
  END LOOP;
END $$;

-- AlterTable
ALTER TABLE "deals" ADD COLUMN     "played_tricks" BYTEA;

-- A deal's packed tricks as rows: byte 0 the cards per trick (w, 1 to 4), then per trick its leader,
-- its winner and its w cards in the order played; a card is suit * 13 + rank (libs/rules/src/cards.ts:
-- rank 0 = '2' … 12 = 'A', suits C D H S), named as the rows name it ('7C', 'TD', 'AS'). The cards
-- are four expressions cut to w, not a subquery per trick: a subquery's estimated cost (a
-- generate_series of 1,000 rows per trick) made the planner JIT-compile a score sheet's read.
CREATE VIEW "packed_tricks" AS
SELECT d."game_id",
       d."index" AS "deal_index",
       t.i::smallint AS "index",
       get_byte(d."played_tricks", o.o)::smallint AS "leader",
       (ARRAY[CASE WHEN w.w > 0 THEN substr('23456789TJQKA', get_byte(d."played_tricks", o.o + 2) % 13 + 1, 1)
                        || substr('CDHS', get_byte(d."played_tricks", o.o + 2) / 13 + 1, 1) END,
              CASE WHEN w.w > 1 THEN substr('23456789TJQKA', get_byte(d."played_tricks", o.o + 3) % 13 + 1, 1)
                        || substr('CDHS', get_byte(d."played_tricks", o.o + 3) / 13 + 1, 1) END,
              CASE WHEN w.w > 2 THEN substr('23456789TJQKA', get_byte(d."played_tricks", o.o + 4) % 13 + 1, 1)
                        || substr('CDHS', get_byte(d."played_tricks", o.o + 4) / 13 + 1, 1) END,
              CASE WHEN w.w > 3 THEN substr('23456789TJQKA', get_byte(d."played_tricks", o.o + 5) % 13 + 1, 1)
                        || substr('CDHS', get_byte(d."played_tricks", o.o + 5) / 13 + 1, 1) END])[1:w.w] AS "cards",
       get_byte(d."played_tricks", o.o + 1)::smallint AS "winner"
  FROM "deals" d
 CROSS JOIN LATERAL (SELECT get_byte(d."played_tricks", 0) AS w) w
 CROSS JOIN LATERAL generate_series(0, (length(d."played_tricks") - 1) / (w.w + 2) - 1) AS t(i)
 CROSS JOIN LATERAL (SELECT 1 + t.i * (w.w + 2) AS o) o
 WHERE d."played_tricks" IS NOT NULL;

-- Every trick of every game, one row each, whichever form it is stored in.
CREATE VIEW "tricks" AS
SELECT "game_id", "deal_index", "index", "leader", "cards", "winner" FROM "live_tricks"
UNION ALL
SELECT "game_id", "deal_index", "index", "leader", "cards", "winner" FROM "packed_tricks";

-- The games compacted before this migration: their tricks packed as the compaction job packs them
-- (apps/api/src/compaction/compaction.sql.ts, packTricksSql), checked the same way (the packed
-- deals read back equal to the rows, else left as rows), then their rows deleted.
CREATE TEMPORARY TABLE "compact_tricks_packed" AS
SELECT t."game_id", t."deal_index",
       set_byte('\x00'::bytea, 0, min(cardinality(t."cards")))
       || string_agg(set_byte('\x00'::bytea, 0, t."leader") || set_byte('\x00'::bytea, 0, t."winner")
                     || (SELECT string_agg(set_byte('\x00'::bytea, 0,
                                  CASE WHEN length(c) = 2 AND strpos('23456789TJQKA', substr(c, 1, 1)) > 0 AND strpos('CDHS', substr(c, 2, 1)) > 0
                                       THEN (strpos('CDHS', substr(c, 2, 1)) - 1) * 13 + strpos('23456789TJQKA', substr(c, 1, 1)) - 1
                                       ELSE 255 END), ''::bytea ORDER BY o)
                           FROM unnest(t."cards") WITH ORDINALITY AS u(c, o)),
                     ''::bytea ORDER BY t."index") AS "played"
  FROM "live_tricks" t
 WHERE EXISTS (SELECT 1 FROM "compact_logs" c WHERE c."game_id" = t."game_id")
 GROUP BY t."game_id", t."deal_index";

UPDATE "deals" d SET "played_tricks" = p."played"
  FROM "compact_tricks_packed" p WHERE d."game_id" = p."game_id" AND d."index" = p."deal_index";

-- A game whose packed tricks do not read back as its rows exactly keeps its rows.
CREATE TEMPORARY TABLE "compact_tricks_unequal" AS
SELECT DISTINCT "game_id" FROM (
  (SELECT "game_id", "deal_index", "index", "leader", "cards", "winner" FROM "packed_tricks"
    WHERE "game_id" IN (SELECT "game_id" FROM "compact_tricks_packed")
   EXCEPT ALL
   SELECT "game_id", "deal_index", "index", "leader", "cards", "winner" FROM "live_tricks"
    WHERE "game_id" IN (SELECT "game_id" FROM "compact_tricks_packed"))
  UNION ALL
  (SELECT "game_id", "deal_index", "index", "leader", "cards", "winner" FROM "live_tricks"
    WHERE "game_id" IN (SELECT "game_id" FROM "compact_tricks_packed")
   EXCEPT ALL
   SELECT "game_id", "deal_index", "index", "leader", "cards", "winner" FROM "packed_tricks"
    WHERE "game_id" IN (SELECT "game_id" FROM "compact_tricks_packed"))
) AS unequal;

UPDATE "deals" SET "played_tricks" = NULL WHERE "game_id" IN (SELECT "game_id" FROM "compact_tricks_unequal");

DELETE FROM "live_tricks" t
 USING "compact_tricks_packed" p
 WHERE t."game_id" = p."game_id" AND t."deal_index" = p."deal_index"
   AND p."game_id" NOT IN (SELECT "game_id" FROM "compact_tricks_unequal");

DROP TABLE "compact_tricks_unequal";
DROP TABLE "compact_tricks_packed";
