-- CreateIndex
CREATE INDEX "notice_sends_finished_at_idx" ON "notice_sends"("finished_at");
