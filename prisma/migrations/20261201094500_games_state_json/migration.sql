-- Every move rewrites games.state whole, and nothing queries inside it: as json it is stored as
-- the text it is, instead of being parsed into jsonb on each write (a tenth of PostgreSQL's CPU
-- per move in a profile of the move path). The change of type rewrites the table, under a lock
-- that holds moves back for as long as that takes (about 20 s per million games on 2 cores).
-- AlterTable
ALTER TABLE "games" ALTER COLUMN "state" SET DATA TYPE JSON;

-- A row is compressed only when it is longer than this (PostgreSQL's default is about 2 kB, which
-- most games' rows are just over): compressing the state on every move cost another tenth of
-- PostgreSQL's CPU per move. Up to 4 kB a row and its next version still share a page, so the
-- move's UPDATE stays a heap-only tuple update; longer states are compressed as before.
ALTER TABLE "games" SET (toast_tuple_target = 4000);
