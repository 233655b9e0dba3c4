-- AlterTable
-- A compacted finished game's state is rebuilt from its compact log (GameLogReader.state): the
-- compaction job sets it to NULL once the rebuild equals it. A catalog change only (no rewrite).
-- Games compacted before this keep their state until `npm run db:compact -- --from-start`.
ALTER TABLE "games" ALTER COLUMN "state" DROP NOT NULL;
