-- Nothing on the move path reads games by (status, updated_at), and an index on a column that
-- every move writes makes each move's UPDATE add an entry to every index of the table.
-- DropIndex
DROP INDEX "games_status_updated_at_idx";

-- Room on each page for a game's next version, so that a move's UPDATE stays on its page as a
-- heap-only tuple (HOT) update: no index entry, less WAL.
ALTER TABLE "games" SET (fillfactor = 70);
