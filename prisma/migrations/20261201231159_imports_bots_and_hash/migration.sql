-- An imported game's bot marks by seat (its record's `bots`, '' for a person), and its record's hash: the same record
-- imported again by the same player answers the first game. Both nullable or defaulted, so adding
-- them rewrites no row; games played here leave import_hash null, which the unique index ignores.

-- AlterTable
ALTER TABLE "games" ADD COLUMN     "import_hash" CHAR(64),
ADD COLUMN     "seat_bots" VARCHAR(16)[] DEFAULT ARRAY[]::VARCHAR(16)[];

-- CreateIndex
CREATE UNIQUE INDEX "games_imported_by_import_hash_key" ON "games"("imported_by", "import_hash");
