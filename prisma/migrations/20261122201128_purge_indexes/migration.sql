-- CreateIndex
CREATE INDEX "email_messages_status_created_at_idx" ON "email_messages"("status", "created_at");

-- CreateIndex
CREATE INDEX "checkouts_quote_id_idx" ON "checkouts"("quote_id");
