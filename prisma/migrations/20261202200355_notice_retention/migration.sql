-- CreateIndex
-- IF NOT EXISTS: on a large notice_sends (notices handed to Web Push were never deleted before
-- this), build it first with CREATE INDEX CONCURRENTLY (docs/operations.md, Retention).
CREATE INDEX IF NOT EXISTS "notice_sends_finished_at_idx" ON "notice_sends"("finished_at");
